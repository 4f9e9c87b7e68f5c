/** Runway: how many days each balance lasts at its recent outflow (docs/features/runway.md). */
export { buildRunway, runwayLines, runwayNotes, runwaySection } from './blocks.js';
export { parseRunwayDays } from './rules.js';
export { createRunwayService, type RunwayReport, type RunwayService } from './service.js';

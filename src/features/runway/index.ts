/** Runway: how many days each balance lasts at its recent outflow (docs/features/runway.md). */
export { runwaySection } from './blocks.js';
export { createRunwayService, type RunwayReport, type RunwayService } from './service.js';

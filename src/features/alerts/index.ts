export {
  type AlertService,
  type AlertServiceOptions,
  type ClickAnswer,
  createAlertService,
  type SubmitAnswer,
} from './service.js';
export { snoozeUntil } from './snooze-until.js';

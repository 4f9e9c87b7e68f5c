export {
  type AlertService,
  type ClickAnswer,
  createAlertService,
} from './service.js';

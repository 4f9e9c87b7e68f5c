/** The Home tab, built in this folder; this file is its public face for app.ts and the listeners. */
export { createHomeTab, type HomeTab } from './service.js';

export { writeAuditCsv } from './csv.js';
export { type AuditSources, auditRows } from './rows.js';
export { type AuditExport, createAuditExport } from './service.js';

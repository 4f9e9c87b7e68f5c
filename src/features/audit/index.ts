export { writeAuditCsv } from './csv.js';
export { AUDIT_PAGE_SIZE, type AuditPeriod, type AuditSources, auditRows } from './rows.js';
export { type AuditExport, type AuditExportDeps, createAuditExport } from './service.js';

/** An ended fleet as a file: JSON (the whole report), JUnit XML (one test case per threshold), HTML with its charts. */
import type { FleetReport, FleetReportFile, FleetReportFormat } from '../../api/fleet-types.js';
import { reportJson } from '../../api/report-json.js';
import { fleetHtml } from './html.js';
import { fleetJUnit } from './junit.js';

export function exportFleet(report: FleetReport, format: FleetReportFormat): FleetReportFile {
  switch (format) {
    case 'json':
      return {
        format,
        fileName: `${report.id}.json`,
        contentType: 'application/json',
        content: reportJson(report),
      };
    case 'junit':
      return {
        format,
        fileName: `${report.id}.junit.xml`,
        contentType: 'application/xml',
        content: fleetJUnit(report),
      };
    case 'html':
      return {
        format,
        fileName: `${report.id}.html`,
        contentType: 'text/html; charset=utf-8',
        content: fleetHtml(report),
      };
  }
}

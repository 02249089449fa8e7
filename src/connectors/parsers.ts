/**
 * The CSV and XML parsers the connectors use, loaded on first use: most questions never read a CSV
 * or XML body, and importing both packages up front cost every `assay` process their module graphs.
 * `require` keeps its own cache, so each package loads once per process.
 */
import { createRequire } from 'node:module';
import type * as CsvSync from 'csv-parse/sync';
import type * as FastXmlParser from 'fast-xml-parser';

const require = createRequire(import.meta.url);

/** csv-parse's synchronous `parse` (its CommonJS build: one file). */
export function parseCsv(input: string, options: CsvSync.Options): unknown {
  return (require('csv-parse/sync') as typeof CsvSync).parse(input, options);
}

/** A fast-xml-parser `XMLParser` with these options. */
export function xmlParser(options: ConstructorParameters<typeof FastXmlParser.XMLParser>[0]): InstanceType<typeof FastXmlParser.XMLParser> {
  return new (require('fast-xml-parser') as typeof FastXmlParser).XMLParser(options);
}

/**
 * Prompts for model generators: deterministic functions of the question, the grounding and the
 * budgets, so completions can be replayed by exact prompt. The grounded prompt carries the schema
 * card, seed-scoped detail for the terms the question touches, VoID figures and the linking; the
 * ungrounded prompt (the harness's baseline) carries the rules and the question only.
 */
import { schemaCard, seedDetail, voidLine, type Grounding } from '../grounding.ts';
import { linkingSection, type Linking } from '../link.ts';

export interface PromptBudgets { cardChars: number; detailChars: number }

const RULES = [
  'You write one SPARQL 1.1 query that answers the question over one RDF graph.',
  'Rules:',
  '- Write a SELECT or an ASK query; project only the variables that answer the question.',
  '- No SERVICE, no FROM, no GRAPH and no property paths: the graph is the query\'s default graph.',
  '- Write IRIs in full or declare their prefixes.',
  '- Reply with the query alone, in one ```sparql block.',
];

export function groundedPrompt(question: string, g: Grounding, linking: Linking | undefined, budgets: PromptBudgets): string {
  const parts = [...RULES, '- Use only the classes, predicates and entities of this graph, as listed below.', '', 'Schema card:', schemaCard(g, budgets.cardChars)];
  const seeds = new Set<string>();
  for (const c of linking?.classes ?? []) seeds.add(c.iri);
  for (const r of (linking?.relations ?? []).slice(0, 5)) seeds.add(r.iri);
  for (const e of linking?.entities ?? []) for (const t of e.types) seeds.add(t);
  const detail = seedDetail(g, [...seeds].sort(), budgets.detailChars);
  if (detail) parts.push('', 'Detail for the terms the question touches:', detail);
  parts.push('', `Dataset: ${voidLine(g)}.`);
  const linked = linking ? linkingSection(linking) : undefined;
  if (linked) parts.push('', linked);
  parts.push('', `Question: ${question.trim()}`);
  return parts.join('\n');
}

export function ungroundedPrompt(question: string): string {
  return [...RULES, '', `Question: ${question.trim()}`].join('\n');
}

/** The prompt for a repair round: the first prompt, the failed query and what went wrong. */
export function repairPrompt(base: string, failedSparql: string | undefined, problem: string): string {
  return [
    base,
    '',
    failedSparql ? `Your previous query:\n\`\`\`sparql\n${failedSparql}\n\`\`\`` : 'Your previous reply held no SPARQL query.',
    `It failed: ${problem}`,
    'Write a corrected query, following the rules above.',
  ].join('\n');
}

/**
 * The page: the ask box with live progress and answers, the SPARQL console and, when the gateway
 * has it, the question-to-SPARQL box. Works with no model configured (the offline default).
 */
import './style.css';
import { h } from './dom.ts';
import { streamAsk, HttpError, type AskBody } from './api.ts';
import { renderAnswer } from './answer.ts';
import { renderPanel } from './panel.ts';
import { drawChart } from './chart.ts';
import { feedbackBox } from './feedback.ts';
import { mountConsole, type Console } from './sparql.ts';
import { mountNlq } from './nlq.ts';
import type { AskResult, PageConfig, ProgressEvent } from './types.ts';

function pageConfig(): PageConfig {
  const el = document.getElementById('assay-config');
  try {
    return { nlq: false, feedback: true, conversations: false, ...(el?.textContent ? JSON.parse(el.textContent) as Partial<PageConfig> : {}) };
  } catch {
    return { nlq: false, feedback: true, conversations: false };
  }
}

const config = pageConfig();
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('ask-form');
const input = $<HTMLInputElement>('ask-question');
const submit = $<HTMLButtonElement>('ask-submit');
const followup = $<HTMLInputElement>('ask-followup');
const conversation = $<HTMLElement>('conversation');
let conversationId: string | null = null;
let current: AbortController | undefined;

function onAmbiguity(): AskBody['on_ambiguity'] {
  const v = (form.elements.namedItem('on_ambiguity') as RadioNodeList).value;
  return v === 'ask' || v === 'all' ? v : 'answer';
}

/** One turn: a heading, the live progress log, then the answer, its panel and the feedback box. */
async function turn(title: string, body: AskBody): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const events: ProgressEvent[] = [];
  const progress = h('ol', { class: 'progress', role: 'log', 'aria-live': 'polite', 'aria-label': 'Progress, one line per decision' });
  const stop = h('button', { type: 'button', class: 'stop', onclick: () => controller.abort(new Error('stopped')) }, 'Stop');
  const heading = h('h3', { tabindex: -1 }, title);
  const section = h('article', { class: 'turn', 'aria-busy': 'true' }, heading, h('div', { class: 'progress-wrap' }, h('h4', {}, 'Progress'), progress, stop));
  conversation.prepend(section);
  submit.disabled = true;
  try {
    const result = await streamAsk(body, (e) => {
      events.push(e);
      progress.append(h('li', { 'data-stage': e.stage }, h('span', { class: 'stage' }, e.stage), h('span', { class: 'by' }, `[${e.by}]`), ' ', e.message));
    }, controller.signal);
    stop.remove();
    show(section, result, events);
  } catch (e) {
    stop.remove();
    const x = e as Error;
    section.append(h('div', { class: 'error', role: 'alert' }, controller.signal.aborted ? 'Stopped.' : x instanceof HttpError ? `Error ${x.status}: ${x.message}` : `Error: ${x.message}`));
  } finally {
    section.setAttribute('aria-busy', 'false');
    if (current === controller) submit.disabled = false;
  }
}

function show(section: HTMLElement, result: AskResult, events: ProgressEvent[]): void {
  const answer = renderAnswer(result, {
    resume: (run, option) => {
      for (const b of section.querySelectorAll<HTMLButtonElement>('button.option')) {
        b.disabled = true;
        b.setAttribute('aria-pressed', String(b.dataset.option === String(option.n)));
      }
      void turn(`Resumed with option ${option.n}: ${option.label}`, { resume: { run, option: option.n } });
    },
    drawChart: (holder, r) => {
      drawChart(holder, r).catch((e: Error) => holder.replaceChildren(h('p', { class: 'warn' }, `The chart could not be drawn: ${e.message}`)));
    },
  });
  section.append(answer, renderPanel(result, events));
  if (config.feedback) section.append(feedbackBox(result.run_id));
  // Keep the conversation going unless the reader unticks "follow-up"; a new conversation starts then.
  if (result.conversation) {
    conversationId = result.conversation;
    followup.disabled = false;
    if (!followup.dataset.touched) followup.checked = true;
  }
  const status = answer.querySelector<HTMLElement>('h4.status');
  if (status) { status.tabIndex = -1; status.focus(); }
}

followup.addEventListener('change', () => { followup.dataset.touched = 'true'; });

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const question = input.value.trim();
  if (!question) return;
  const strict = ($<HTMLInputElement>('ask-strict')).checked;
  const body: AskBody = { question, on_ambiguity: onAmbiguity(), ...(strict ? { strict } : {}) };
  if (followup.checked && conversationId) body.conversation = conversationId;
  void turn(question, body);
});

// The SPARQL console, and the nlq box when the gateway serves POST /nlq.
let sparqlConsole: Promise<Console> | undefined;
sparqlConsole = mountConsole($('sparql-editor'), $<HTMLButtonElement>('sparql-run'), $('sparql-status'), $('sparql-results'));
sparqlConsole.catch((e: Error) => { $('sparql-status').textContent = `The editor could not load: ${e.message}`; });

if (config.nlq) {
  $('nlq').hidden = false;
  $('nav-nlq').hidden = false;
  mountNlq($<HTMLFormElement>('nlq-form'), $<HTMLInputElement>('nlq-question'), $('nlq-result'), (q) => {
    void sparqlConsole?.then((c) => { c.setQuery(q); $('sparql').scrollIntoView(); });
  });
}
document.documentElement.dataset.ready = 'true';

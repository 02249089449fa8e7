/**
 * Feedback on one answer: helpful or wrong, with an optional comment, sent to POST /feedback and
 * stored as RDF linked to the run. The feedback already given on the run is listed under it.
 */
import { h, uid } from './dom.ts';
import { listFeedback, sendFeedback, HttpError, type FeedbackItem } from './api.ts';

function item(f: FeedbackItem): HTMLElement {
  return h('li', {}, h('strong', {}, f.rating), ` · ${new Date(f.created).toLocaleString()}`, f.comment ? ` — “${f.comment}”` : '');
}

export function feedbackBox(run: string): HTMLElement {
  const commentId = uid('fb-comment');
  const status = h('p', { class: 'fb-status', role: 'status' });
  const list = h('ul', { class: 'fb-list', 'aria-label': 'Feedback given on this answer' });
  const comment = h('textarea', { id: commentId, rows: 2, maxlength: 2000, placeholder: 'What was wrong, or what helped (optional)' });
  const send = async (rating: 'helpful' | 'wrong') => {
    status.textContent = 'Sending…';
    try {
      const f = await sendFeedback(run, rating, comment.value);
      list.prepend(item(f));
      comment.value = '';
      status.textContent = `Thank you: recorded as “${rating}”.`;
    } catch (e) {
      const x = e as Error;
      status.textContent = x instanceof HttpError ? `Not recorded (${x.status}): ${x.message}` : `Not recorded: ${x.message}`;
    }
  };
  void listFeedback(run).then((items) => list.replaceChildren(...items.map(item)), () => undefined);
  return h('section', { class: 'feedback', 'aria-label': 'Feedback on this answer' },
    h('h4', {}, 'Was this answer right?'),
    h('label', { for: commentId }, 'Comment'), comment,
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'fb-helpful', onclick: () => void send('helpful') }, 'Helpful'),
      h('button', { type: 'button', class: 'fb-wrong', onclick: () => void send('wrong') }, 'Wrong')),
    status, list);
}

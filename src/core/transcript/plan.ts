/** `plan.update`: todos merged by id, first-seen order kept, statuses applied. */
import type { Plan, Todo, TodoStatus } from './model';
import { isRecord } from '../shared/schema';
import { str, strOrNum } from './read';

/** Reads a todo status in the service's or a common spelling; undefined when unrecognised. */
export function readTodoStatus(v: unknown): TodoStatus | undefined {
  switch (v) {
    case 'pending':
    case 'todo':
    case 'not_started':
      return 'pending';
    case 'active':
    case 'in_progress':
    case 'running':
    case 'doing':
      return 'active';
    case 'completed':
    case 'complete':
    case 'done':
      return 'completed';
    default:
      return undefined;
  }
}

/** Merges a list of todo patches into the plan. Returns whether the plan changed. */
export function mergeTodos(plan: Plan, patches: unknown[]): boolean {
  let changed = false;
  patches.forEach((raw, i) => {
    if (!isRecord(raw)) return;
    const content = str(raw.content) ?? str(raw.title) ?? str(raw.text);
    // A todo without an id is keyed by its content, else by its place in the patch.
    const id = strOrNum(raw.id) ?? content ?? `#${i}`;
    const status = readTodoStatus(raw.status);
    const todo = plan.todos.find((t) => t.id === id);
    if (!todo) {
      const created: Todo = { id, content: content ?? '', status: status ?? 'pending' };
      plan.todos.push(created);
      changed = true;
      return;
    }
    if (content !== undefined && content !== todo.content) {
      todo.content = content;
      changed = true;
    }
    if (status !== undefined && status !== todo.status) {
      todo.status = status;
      changed = true;
    }
  });
  return changed;
}

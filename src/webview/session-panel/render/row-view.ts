/** Creates the view of one transcript row, or reuses one whose row left the DOM. */
import { GenericView, MarkdownSectionView, TextView, ThoughtView } from './block-views';
import type { RowView, ViewContext } from './context';
import type { Row } from './rows';
import { ToolGroupView } from './group-view';
import { ToolCardView } from './tool-card';
import { FilesView, PlanView, StatusLineView, UserMessageView } from './turn-views';

export function createRowView(row: Row, ctx: ViewContext): RowView {
  switch (row.kind) {
    case 'user':
      return new UserMessageView(ctx, row.turnId);
    case 'plan':
      return new PlanView(ctx, row.turnId);
    case 'files':
      return new FilesView(ctx, row.turnId);
    case 'status':
      return new StatusLineView(ctx, row.turnId);
    case 'group':
      return new ToolGroupView(ctx, row.turnId, row.key, row.blockIds);
    case 'md':
      return new MarkdownSectionView(ctx, row.turnId, row.blockId, row.part);
    case 'block': {
      const b = ctx.store.block(row.turnId, row.blockId);
      switch (b?.type) {
        case 'tool':
          return new ToolCardView(ctx, row.turnId, row.blockId, row.inGroup === true);
        case 'thought':
          return new ThoughtView(ctx, row.turnId, row.blockId);
        case 'text':
        case 'message':
          return new TextView(ctx, row.turnId, row.blockId, b.type);
        default:
          return new GenericView(ctx, row.turnId, row.blockId);
      }
    }
  }
}

/** The kind of view a row needs, for rows whose views can be reused (`RowView.rebind`). */
function reuseKind(row: Row, ctx: ViewContext): string | undefined {
  if (row.kind === 'md') return 'md';
  if (row.kind !== 'block') return undefined;
  const type = ctx.store.block(row.turnId, row.blockId)?.type;
  return type === 'tool' || type === 'thought' ? type : undefined;
}

/**
 * Views of rows that left the DOM, a few of each kind, given to the next rows of that kind to come
 * in: a fast scroll patches the same elements instead of building (and collecting) new ones.
 */
export class RowPool {
  private readonly free = new Map<string, RowView[]>();

  constructor(
    private readonly ctx: ViewContext,
    private readonly perKind = 32,
  ) {}

  /** A view of `row`: a free one of its kind rebound to it, else a new one. */
  take(row: Row): RowView {
    const kind = reuseKind(row, this.ctx);
    const view = kind === undefined ? undefined : this.free.get(kind)?.pop();
    if (!view?.rebind) return createRowView(row, this.ctx);
    view.rebind(row);
    return view;
  }

  /** Keeps the view of a row that left the DOM, if its kind has room. */
  give(view: RowView): void {
    const kind =
      view instanceof ToolCardView
        ? 'tool'
        : view instanceof ThoughtView
          ? 'thought'
          : view instanceof MarkdownSectionView
            ? 'md'
            : undefined;
    if (kind === undefined) return;
    let list = this.free.get(kind);
    if (!list) this.free.set(kind, (list = []));
    if (list.length < this.perKind) list.push(view);
  }

  clear(): void {
    this.free.clear();
  }
}

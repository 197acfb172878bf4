/** Creates the view of one transcript row. */
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

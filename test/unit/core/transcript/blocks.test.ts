import assert from 'node:assert/strict';
import { addBlock, findBlock, newMarkdown, newText } from '../../../../src/core/transcript/blocks';
import type { Block } from '../../../../src/core/transcript/model';

describe('findBlock', () => {
  const three = (): Block[] => {
    const blocks: Block[] = [];
    for (const id of ['answer:main', 'thought:1', 'text:main'])
      addBlock(blocks, id === 'text:main' ? newText(id) : newMarkdown(id));
    return blocks;
  };

  it('finds each block by id, the same one again and then another', () => {
    const blocks = three();
    for (const id of ['thought:1', 'thought:1', 'answer:main', 'text:main', 'thought:1', 'answer:main'])
      assert.equal(findBlock(blocks, id)?.id, id);
    assert.equal(findBlock(blocks, 'answer:other'), undefined);
  });

  it('is not misled by the last block found when the array changed in place', () => {
    const blocks = three();
    assert.equal(findBlock(blocks, 'thought:1')?.id, 'thought:1');
    // The block last found is replaced by another one (same length: the index is not rebuilt).
    const replacement = newText('text:2');
    blocks[1] = replacement;
    assert.equal(findBlock(blocks, 'thought:1'), undefined);
    assert.equal(findBlock(blocks, 'text:2'), replacement);
    // Two blocks swap places.
    [blocks[0], blocks[2]] = [blocks[2], blocks[0]];
    assert.equal(findBlock(blocks, 'answer:main'), blocks[2]);
    assert.equal(findBlock(blocks, 'text:main'), blocks[0]);
  });

  it('finds the first of two blocks with one id, also after finding the second id', () => {
    const first = newMarkdown('answer:main');
    const blocks: Block[] = [newText('text:main'), first, newMarkdown('answer:main')];
    assert.equal(findBlock(blocks, 'answer:main'), first);
    assert.equal(findBlock(blocks, 'text:main'), blocks[0]);
    assert.equal(findBlock(blocks, 'answer:main'), first);
  });

  it('finds a block added after the array was indexed', () => {
    const blocks = three();
    assert.equal(findBlock(blocks, 'answer:main')?.id, 'answer:main');
    addBlock(blocks, newText('text:3'));
    blocks.push(newText('text:4'));
    assert.equal(findBlock(blocks, 'text:3'), blocks[3]);
    assert.equal(findBlock(blocks, 'text:4'), blocks[4]);
  });
});

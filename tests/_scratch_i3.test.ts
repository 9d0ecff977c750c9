import { test } from 'bun:test';
import { createTestWorld, ok, call, textOf, sampleBinding } from './helpers';
test('dbg', async () => {
  const w = await createTestWorld();
  const a = await w.connect('alice');
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push((await ok(a, 'create_binding', sampleBinding(i))).binding.id);
  const { set } = await ok(a, 'create_set', { name: 'Race' });
  const results = await Promise.all(ids.map((bindingId) => call(a, 'edit_set_items', { id: set.id, add: [{ bindingId }] })));
  for (const r of results) if (r.isError) console.log(textOf(r));
});

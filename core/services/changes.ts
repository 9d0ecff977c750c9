/** Called with the id of a binding that got a new version or was deleted. */
export type BindingChangeListener = (bindingId: string) => void;

/** Listeners per database handle: sessions on one handle hear writes made through it, in this process. */
const listeners = new WeakMap<object, Set<BindingChangeListener>>();

/** Subscribes to binding changes written through `db` in this process; returns the unsubscribe. */
export function onBindingChanged(db: object, listener: BindingChangeListener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells this process's listeners that a write changed a binding. A listener's failure never fails the write. */
export function announceBindingChanged(db: object, bindingId: string): void {
  for (const listener of listeners.get(db) ?? []) {
    try {
      listener(bindingId);
    } catch {
      // A listener is a notification path (resources/updated); the write already happened.
    }
  }
}

/**
 * A value made on first use for each key object and forgotten with it: per-app state, since tests
 * build several apps (each its own context) in one process.
 */
export function onePer<K extends object, V>(create: () => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    let value = made.get(key);
    if (!value) {
      value = create();
      made.set(key, value);
    }
    return value;
  };
}

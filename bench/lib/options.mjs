// The bench scripts' command-line options, given as --name=value.

/** The text after `--name=` (all of it: a value may hold '='), or `fallback` when not given. */
export function optionText(name, fallback) {
  const prefix = `--${name}=`;
  const given = process.argv.find((a) => a.startsWith(prefix));
  return given === undefined ? fallback : given.slice(prefix.length);
}

/** optionText as a number. */
export function optionNumber(name, fallback) {
  const text = optionText(name, undefined);
  return text === undefined ? fallback : Number(text);
}

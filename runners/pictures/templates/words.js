// How a number is said with the noun it counts, as models/words.py says it: shared by the play
// pages (inlined after common.js) and the workshop's pages (served as /words.js).
function plural(n, word) {  // "1 move", "2 moves", "1,234 moves": as models/words.py says it
  const many = /[^aeiou]y$/.test(word) ? word.slice(0, -1) + "ies"
    : /(s|x|z|ch|sh)$/.test(word) ? word + "es" : word + "s";
  return `${n.toLocaleString("en-US")} ${n === 1 ? word : many}`;
}

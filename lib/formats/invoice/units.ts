/**
 * Units of measure between the two ways invoices write them: KSeF's `P_8A` is free text as the seller writes it
 * ("szt.", "kg", "godz."), EN 16931's BT-130 a code of UN/ECE Recommendation 20 (or 21 with an X prefix), which the
 * artefacts' BR-CL-23 checks. One table read both ways for converting (README "Converting invoices"): the Polish
 * words and abbreviations usual on invoices and the codes they stand for. A unit not on it is a loss, never guessed.
 * @module
 */

/** UN/ECE Rec 20/21 code → the Polish unit written for it in FA(3), the first of each code being the one written. */
const _UNITS: readonly [code: string, names: readonly string[]][] = [
  ["H87", ["szt.", "szt", "sztuka", "sztuki", "sztuk"]],
  ["C62", ["szt.", "jedn.", "j.m."]],
  ["KGM", ["kg", "kilogram"]],
  ["GRM", ["g", "gram"]],
  ["TNE", ["t", "tona"]],
  ["LTR", ["l", "litr"]],
  ["MTR", ["m", "metr", "mb", "m.b."]],
  ["KMT", ["km"]],
  ["MTK", ["m2", "m²", "mkw"]],
  ["MTQ", ["m3", "m³"]],
  ["HUR", ["godz.", "h", "godz", "godzina", "godziny", "rbh"]],
  ["MIN", ["min"]],
  ["DAY", ["dzień", "dni", "doba"]],
  ["WEE", ["tydz.", "tydzień"]],
  ["MON", ["mies.", "m-c", "miesiąc", "mc"]],
  ["ANN", ["rok", "lata"]],
  ["KWH", ["kWh"]],
  ["MWH", ["MWh"]],
  ["SET", ["kpl.", "kpl", "komplet"]],
  ["PR", ["para", "pary"]],
  ["XPK", ["opak.", "op.", "opakowanie"]],
  ["XPA", ["paczka"]],
  ["XBX", ["karton"]],
  ["XPX", ["paleta"]],
  ["E48", ["usł.", "usługa", "usl", "usł", "USL"]],
  ["LS", ["ryczałt"]],
];

const _CODE_OF = new Map<string, string>();
for (const [code, names] of _UNITS) for (const n of names) if (!_CODE_OF.has(n.toLowerCase())) _CODE_OF.set(n.toLowerCase(), code);
const _NAME_OF = new Map(_UNITS.map(([code, names]) => [code, names[0]!]));

/** The UN/ECE code of a unit as a KSeF invoice writes it ("szt." → "H87"); a code passes as itself; null when unknown. */
export function unitCodeOf(unit: string): string | null {
  const t = unit.trim();
  if (_NAME_OF.has(t)) return t;
  return _CODE_OF.get(t.toLowerCase()) ?? null;
}

/** The Polish unit FA(3) writes for a UN/ECE code ("KGM" → "kg"); null when the code is not on the table. */
export function unitNameOf(code: string): string | null {
  return _NAME_OF.get(code.trim()) ?? null;
}

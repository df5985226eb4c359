// Runs Apple's reference password-rules parser (tools/PasswordRulesParser.js from
// apple/password-manager-resources, MIT) on every rules string of a corpus and writes what it
// makes of each, for Sesame's parser to agree with (Tests/SesameServiceTests/PasswordRulesTests).
//
//   node scripts/password-rules-vectors.js PATH/TO/PasswordRulesParser.js < corpus.jsonl > vectors.json
//
// Input: one JSON string per line. Output: [{input, errors, rules: [{name, value}]}], where value
// is a number or a list of {named} / {custom} classes, in the order the reference returns them,
// and errors is how many problems it reported.
"use strict";
const fs = require("fs");
const vm = require("vm");
const parserPath = process.argv[2];
if (!parserPath) {
    console.error("usage: node password-rules-vectors.js PATH/TO/PasswordRulesParser.js < corpus.jsonl");
    process.exit(2);
}
const sandbox = { errors: 0, console: { assert() {}, warn() {}, error() { sandbox.errors += 1; } } };
vm.createContext(sandbox);
vm.runInContext(fs.readFileSync(parserPath, "utf8"), sandbox, { filename: parserPath });
vm.runInContext(
    "globalThis.describe = (input) => parsePasswordRules(input).map((rule) => ({ name: rule.name, value: " +
        "Array.isArray(rule.value) ? rule.value.map((v) => v instanceof CustomCharacterClass ? " +
        "{ custom: v.characters.join('') } : { named: v.name }) : rule.value }));",
    sandbox);
const inputs = fs.readFileSync(0, "utf8").split("\n").filter((line) => line.length).map((line) => JSON.parse(line));
const vectors = inputs.map((input) => {
    sandbox.errors = 0;
    const rules = sandbox.describe(input);
    return { input, errors: sandbox.errors, rules };
});
process.stdout.write(JSON.stringify(vectors, null, 1) + "\n");

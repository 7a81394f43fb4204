'use strict';
// Which C files of the addon call which, read from the compiled objects'
// symbol tables (nm): a file calls another when one of its undefined fh_*
// symbols is one the other defines. test/lint.test.js fails on a circle
// (two files, or more, that call each other round): each file has one
// concern, and the files it uses are below it, so module.c (the export
// table) calls into the others and nothing calls back into it.
//
//   node scripts/c-calls.js [objdir]   prints the calls and any circle;
//                                      exits 1 on a circle
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const ROOT = path.join(__dirname, '..');
const OBJ_DIR = path.join(ROOT, 'build', 'Release', 'obj.target', 'fast_hash', 'src');

// { file: { defines: Set, uses: Set } } from `nm` over every .o in dir, the
// file named as its source (hash.o -> hash.c). Only fh_* symbols: the
// addon's own; Node-API's and OpenSSL's are undefined in every file.
function symbolTables(dir = OBJ_DIR) {
  const tables = {};
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.o')).sort()) {
    const text = execFileSync('nm', [path.join(dir, name)], { encoding: 'utf8' });
    const table = { defines: new Set(), uses: new Set() };
    for (const line of text.split('\n')) {
      const m = /^\s*[0-9a-f]*\s+([A-Za-z])\s+(fh_\w+)$/.exec(line);
      if (!m) continue;
      if (m[1] === 'U') table.uses.add(m[2]);
      else if (m[1] === m[1].toUpperCase()) table.defines.add(m[2]); // lower case: local to the file
    }
    tables[name.replace(/\.o$/, '.c')] = table;
  }
  return tables;
}

// { file: [the files it calls] }, each list sorted, a file never its own.
function callGraph(tables) {
  const owner = new Map();
  for (const [file, t] of Object.entries(tables)) for (const sym of t.defines) owner.set(sym, file);
  const graph = {};
  for (const [file, t] of Object.entries(tables)) {
    const callees = new Set([...t.uses].map((sym) => owner.get(sym)).filter((f) => f && f !== file));
    graph[file] = [...callees].sort();
  }
  return graph;
}

// The circles of a call graph: its strongly connected components of more
// than one file (Tarjan's algorithm), each a sorted list of files.
function circles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph[v] || []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of Object.keys(graph).sort()) if (!index.has(v)) visit(v);
  return found;
}

// The files that call `file`.
function callers(graph, file) {
  return Object.keys(graph).filter((f) => graph[f].includes(file)).sort();
}

module.exports = { OBJ_DIR, symbolTables, callGraph, circles, callers };

if (require.main === module) {
  const graph = callGraph(symbolTables(process.argv[2] || OBJ_DIR));
  for (const [file, callees] of Object.entries(graph)) console.log(`${file} -> ${callees.join(' ') || '(nothing)'}`);
  const found = circles(graph);
  for (const c of found) console.log(`circle: ${c.join(' <-> ')}`);
  process.exitCode = found.length ? 1 : 0;
}

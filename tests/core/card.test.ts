// Cards that describe the document: name, summary and key points of real READMEs from
// node_modules and of the private corpus of bench/loop, as a careful reader would write them. Before
// core/services/card.ts, chalk was named "Info", express "Table of contents", tsx "Sponsors"; es-toolkit's
// summary was its language menu ("English"), ajv's "&nbsp;", ip-address's a row of badges; key points
// were bare headings.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMarkdownDoc } from '../../core/services/import.ts';
import { describeDocument } from '../../core/services/card.ts';
import { plainText, sentences } from '../../core/services/card-prose.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { importFolder } from '../../adapters/cli/import.ts';
import { createTestWorld, ok } from '../helpers.ts';
import { REPO } from '../stdio-client.ts';

const modules = join(REPO, 'node_modules');
const privateDir = join(REPO, 'bench', 'loop', 'private');
/** A README as the benches import it: its path relative to node_modules. */
const readme = (path: string) => parseMarkdownDoc(readFileSync(join(modules, path), 'utf8'), path);
const internal = (file: string) => parseMarkdownDoc(readFileSync(join(privateDir, file), 'utf8'), file);
const corpus = readFileSync(join(REPO, 'bench', 'loop', 'thirdparty-files.txt'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'));

describe('the name', () => {
  test('a generic first heading ("Info", "Table of contents", "Sponsors", "Quick Start", "Install") gives way to the package the README is in', () => {
    expect(readme('chalk/readme.md').name).toBe('chalk');
    expect(readme('express/Readme.md').name).toBe('express');
    expect(readme('tsx/README.md').name).toBe('tsx');
    expect(readme('hono/README.md').name).toBe('hono');
    expect(readme('file-type/readme.md').name).toBe('file-type');
    expect(readme('@types/node/README.md').name).toBe('@types/node');
  });

  test('a real title is kept, without emoji, entities or separators around it', () => {
    expect(readme('cors/README.md').name).toBe('cors');
    expect(readme('es-toolkit/README.md').name).toBe('es-toolkit');
    expect(readme('pino-std-serializers/Readme.md').name).toBe('pino-std-serializers');
    expect(readme('vite/README.md').name).toBe('Vite');
    expect(readme('js-tiktoken/README.md').name).toBe('js-tiktoken');
    expect(internal('policy-leave.md').name).toBe('Leave policy');
  });

  test('a tagline heading below the top level is prefixed with the package it describes', () => {
    expect(readme('drizzle-orm/README.md').name).toBe('drizzle-orm: Headless ORM for NodeJS, TypeScript and JavaScript');
  });

  test('the package name given by the caller wins over the folder; with neither, the generic heading stays', () => {
    const text = readFileSync(join(modules, 'tsx', 'README.md'), 'utf8');
    expect(parseMarkdownDoc(text, 'README.md', 'tsx').name).toBe('tsx');
    expect(parseMarkdownDoc(text, 'README.md').name).toBe('Sponsors');
    expect(parseMarkdownDoc('Just a paragraph of text.\n', 'notes/meeting-2024.md').name).toBe('meeting-2024');
  });
});

describe('the summary', () => {
  test('is the first real prose: badges, language menus, HTML spacers, callouts and install commands are skipped', () => {
    expect(readme('ip-address/README.md').summary).toStartWith(
      'ip-address is a library for validating and manipulating IPv4 and IPv6 addresses',
    );
    expect(readme('es-toolkit/README.md').summary).toStartWith(
      'es-toolkit is a state-of-the-art, high-performance JavaScript utility library',
    );
    expect(readme('nanoid/README.md').summary).toStartWith('A tiny, secure, URL-friendly, unique string ID generator for JavaScript.');
    expect(readme('ajv/README.md').summary).toStartWith('The fastest JSON validator for Node.js and browser.');
    expect(readme('libsql/README.md').summary).toStartWith('libSQL (this repository) is an open-source fork of SQLite.');
    expect(readme('@types/node/README.md').summary).toStartWith('This package contains type definitions for node');
    expect(readme('drizzle-orm/README.md').summary).toStartWith('Drizzle is a modern TypeScript ORM');
  });

  test('filing lines (owner, version, status) are not what a document is about', () => {
    expect(internal('runbook-deploy.md').summary).toBe('Deployments use Argo CD from the deploy repository.');
    expect(readme('iconv-lite/README.md').summary).toStartWith(
      'No need for native code compilation. Quick to install, works on Windows, Web, and in sandboxed environments. Used in popular projects',
    );
    expect(internal('policy-leave.md').summary).toStartWith('This policy covers annual leave, sick leave, recovery leave');
  });

  test('a tagline keeps its words and is not padded with a label line that follows it', () => {
    expect(readme('chalk/readme.md').summary).toBe('Terminal string styling done right');
    expect(readme('qs/README.md').summary).toBe('A querystring parsing and stringifying library with some added security.');
  });
});

describe('key points', () => {
  test('a generic heading takes what its section says; a heading that names its subject stands alone; licence, contributing, sponsors and install are left out', () => {
    const chalk = readme('chalk/readme.md').keyPoints;
    expect(chalk).toContain('Usage: Chalk comes with an easy to use composable API where you just chain and nest the styles you want.');
    expect(chalk.find((k) => k.startsWith('Highlights: '))).toStartWith('Highlights: Expressive API; Highly performant; No dependencies;');
    expect(chalk).toContain('256 and Truecolor color support');
    expect(internal('policy-leave.md').keyPoints.slice(0, 2)).toEqual(['1. Annual leave', '2. Requesting leave']);
    const rate = readme('express-rate-limit/readme.md').keyPoints;
    expect(rate.some((k) => /^Usage: \S/.test(k))).toBe(true);
    for (const k of [...rate, ...chalk, ...readme('cors/README.md').keyPoints])
      expect(k).not.toMatch(/^(License|Contributing|Issues and Contributing|Sponsors|Install|Installation|Original Author)\b/);
  });

  test('a sentence that leads into a list takes the list; a section of sub-headings lists them', () => {
    const doc = parseMarkdownDoc(
      '# Gizmo\n\nGizmo turns widgets into gadgets.\n\n## Usage\n\nRun it from any folder of your project in one of these ways:\n\n- npx gizmo\n- bunx gizmo\n\n## API\n\n### gizmo(widget)\n\n### gizmo.undo()\n',
      'gizmo.md',
    );
    expect(doc.keyPoints).toEqual([
      'Usage: Run it from any folder of your project in one of these ways: npx gizmo; bunx gizmo',
      'API: gizmo(widget), gizmo.undo()',
    ]);
    expect(readme('iconv-lite/README.md').keyPoints).toContain('Usage: Basic API, Streaming API');
  });

  test('every README of the loop corpus: a name that is no generic heading, a summary with no badge or entity left, at most 8 key points of at most 160 characters', () => {
    for (const path of corpus) {
      const doc = readme(path);
      expect(doc.name.trim().length).toBeGreaterThan(0);
      expect(doc.name).not.toMatch(/^(install|installation|usage|sponsors|quick start|getting started|table of contents|features|info)$/i);
      expect(doc.summary).not.toMatch(/\[!\[|&nbsp;|&middot;/);
      expect(doc.keyPoints.length).toBeLessThanOrEqual(8);
      for (const k of doc.keyPoints) expect(k.length).toBeLessThanOrEqual(160);
    }
  });
});

describe('the pieces', () => {
  test('sentences end at a full stop before a capital, not after an abbreviation or inside a version', () => {
    expect(sentences('Use v1.2. It works, e.g. Today. Then stop.')).toEqual(['Use v1.2. It works, e.g. Today.', 'Then stop.']);
    expect(plainText('[![ci]](https://ci) **Bold** _word_ &amp; snake_case_name')).toBe('Bold word & snake_case_name');
  });

  test('with no heading and no prose the card falls back to the file name and the first text', () => {
    expect(describeDocument([{ kind: 'text', level: 0, text: '- one\n- two' }], { fileName: 'docs/list.md' })).toEqual({
      name: 'list',
      summary: 'one; two',
      keyPoints: [],
    });
  });
});

describe('bindery import names a README after the package.json beside it', () => {
  test('a generic first heading becomes the package name', async () => {
    const world = await createTestWorld();
    const dir = mkdtempSync(join(tmpdir(), 'bindery-card-'));
    try {
      mkdirSync(join(dir, 'gizmo'));
      writeFileSync(join(dir, 'gizmo', 'package.json'), JSON.stringify({ name: '@acme/gizmo', version: '1.0.0' }));
      writeFileSync(
        join(dir, 'gizmo', 'README.md'),
        '# Install\n\n```sh\nnpm i @acme/gizmo\n```\n\nGizmo turns widgets into gadgets.\n\n## Usage\n\nCall gizmo() on a widget.\n',
      );
      writeFileSync(join(dir, 'README.md'), '# Quick Start\n\nThe whole toolbox in one folder.\n');
      const deps = { db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() };
      const caller = await ensureCaller(deps, 'carder');
      await importFolder(deps, caller, dir, () => {});
      const client = await world.connect('carder');
      const listed = await ok<{ results: { name: string }[] }>(client, 'list_bindings', { limit: 10 });
      const names = listed.results.map((b) => b.name).sort();
      expect(names).toEqual(['@acme/gizmo', 'Quick Start']);
    } finally {
      world.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('hostile documents', () => {
  test('unclosed brackets, tags, comments, endless sentences and symbol headings are read in one pass', () => {
    // Each of these took minutes or hours at this size: a pattern re-read the rest of the text from
    // every "[", "<a ", "<!--" or full stop, or every symbol of a heading's tail.
    const md = [
      `# ${'—'.repeat(300_000)}Guide${'—'.repeat(300_000)}`,
      '',
      '['.repeat(300_000),
      '',
      '<a '.repeat(100_000),
      '',
      '<!-- '.repeat(60_000),
      '',
      'e.g. A '.repeat(50_000),
      '',
      '## Usage',
      '',
      `Call it. ${'](x'.repeat(100_000)}`,
    ].join('\n');
    const doc = parseMarkdownDoc(md, 'hostile/README.md');
    expect(doc.name).toBe('Guide');
    expect(doc.summary.length).toBeGreaterThan(0);
  });

  test('links keep their text, a target may hold parentheses, and comments leave no trace', () => {
    expect(plainText('See [the page](https://en.wikipedia.org/wiki/Foo_(bar)) <!-- note --> now.')).toBe('See the page now.');
    expect(plainText('[a][ref] and ![logo](x.png) and <a href="u">b</a>')).toBe('a and and b');
  });
});

// Regenerates cctv_age_hybrid.txt from the npm package cctv-age (C2SP CCTV age vectors, CC0):
//   npm pack cctv-age && tar xzf cctv-age-*.tgz && node extract_cctv_age_hybrid.mjs package/index.js
// For every hybrid_* vector it writes its expectation, identity and file key, and the enc / body of each
// mlkem768x25519 stanza in hex, so the HPKE layer (core/pq/hpke) can be tested without an age parser.
import { inflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const vectors = await import(pathToFileURL(resolve(process.argv[2])).href);
const out = ['# C2SP CCTV age hybrid_* vectors (npm cctv-age 0.2.0, CC0): mlkem768x25519 stanzas in hex.'];
for (const name of Object.keys(vectors).filter((n) => n.startsWith('hybrid')).sort()) {
  let raw = Buffer.from(vectors[name]);
  const split = raw.indexOf('\n\n');
  const meta = raw.subarray(0, split).toString('latin1');
  let body = raw.subarray(split + 2);
  const field = (k) => (meta.match(new RegExp('^' + k + ': (.*)$', 'm')) || [])[1];
  if (field('compressed') === 'zlib') body = inflateSync(body);
  if (field('armored') === 'yes') continue;
  const text = body.toString('latin1');
  const header = text.slice(0, text.indexOf('\n--- '));
  out.push('', 'vector = ' + name, 'expect = ' + field('expect'), 'identity = ' + field('identity'),
    'file_key = ' + (field('file key') || ''));
  const lines = header.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const args = lines[i].startsWith('-> ') ? lines[i].slice(3).split(' ') : null;
    if (!args || args[0] !== 'mlkem768x25519') continue;
    let b64 = '';
    for (let j = i + 1; j < lines.length && !lines[j].startsWith('-> '); j++) {
      b64 += lines[j];
      if (lines[j].length < 64) break;
    }
    out.push('stanza_args = ' + (args.length - 1), 'enc = ' + Buffer.from(args[1] || '', 'base64').toString('hex'),
      'body = ' + Buffer.from(b64, 'base64').toString('hex'));
  }
}
console.log(out.join('\n'));

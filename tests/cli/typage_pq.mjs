// typage (npm age-encryption) as the peer of tests/cli/test_age_pq.sh: post-quantum keys and age files.
// TYPAGE_DIR names a folder where `npm install age-encryption` was run.
//   node typage_pq.mjs keygen                       -> an identity file as age-keygen writes it
//   node typage_pq.mjs recipient IDENTITY_FILE      -> the recipient of the first identity in the file
//   node typage_pq.mjs encrypt RECIPIENT IN OUT     -> binary age file
//   node typage_pq.mjs decrypt IDENTITY_FILE IN OUT
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const age = await import(
  pathToFileURL(join(process.env.TYPAGE_DIR, "node_modules/age-encryption/dist/index.js")).href
);
const identityIn = (file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .find((l) => l.startsWith("AGE-SECRET-KEY-"));

//   node typage_pq.mjs batch < COMMANDS             -> each line of standard input "encrypt R IN OUT" or
//                                                      "decrypt IDENTITY_FILE IN OUT", in one process (a node
//                                                      start loading typage is a good part of a second); stops
//                                                      at the first that fails, naming it, exit 1
async function run(cmd, args) {
  if (cmd === "keygen") {
    const id = await age.generateHybridIdentity();
    console.log(`# public key: ${await age.identityToRecipient(id)}`);
    console.log(id);
  } else if (cmd === "recipient") {
    console.log(await age.identityToRecipient(identityIn(args[0])));
  } else if (cmd === "encrypt") {
    const e = new age.Encrypter();
    e.addRecipient(args[0]);
    writeFileSync(args[2], await e.encrypt(readFileSync(args[1])));
  } else if (cmd === "decrypt") {
    const d = new age.Decrypter();
    d.addIdentity(identityIn(args[0]));
    writeFileSync(args[2], await d.decrypt(readFileSync(args[1])));
  } else {
    console.error("usage: typage_pq.mjs keygen | recipient ID | encrypt R IN OUT | decrypt ID IN OUT | batch");
    process.exit(2);
  }
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === "batch") {
  for (const line of readFileSync(0, "utf8").split("\n")) {
    const [each, ...its] = line.trim().split(/\s+/);
    if (each !== "encrypt" && each !== "decrypt") continue;
    try {
      await run(each, its);
    } catch (e) {
      console.error(`typage_pq.mjs batch: '${line.trim()}' failed: ${e}`);
      process.exit(1);
    }
  }
} else {
  await run(cmd, args);
}

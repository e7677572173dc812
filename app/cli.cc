#include "app/cli.h"

#include <pcrypt/pcrypt.h>
#include <CLI/CLI.hpp>

#include <cctype>
#include <optional>
#include <string>

#include "app/environment.h"
#include "app/mount_cli.h"
#include "app/ssh_key_passphrase.h"

namespace pcrypt::app {
namespace {

constexpr const char* kExitStatusFooter =
    "Exit status:\n"
    "  0  success\n"
    "  1  I/O or other error; also a refusal to overwrite a file, to write ciphertext to a terminal or to\n"
    "     write over the input, and (without a message) a reader of standard output that went away\n"
    "  2  usage error (bad option or value, unknown engine, missing .pcrypt suffix without -o)\n"
    "  3  wrong key, identity or passphrase, or not a (valid) pcrypt header\n"
    "  4  corrupted, truncated or reordered payload\n"
    "  130, 143, 129  interrupted by SIGINT (Ctrl-C), SIGTERM or SIGHUP: the partial output is removed and\n"
    "     pcrypt dies of the signal, which shells report as 128 + its number\n"
    "\n"
    "Environment: PCRYPT_PASSPHRASE (passphrase for -p; alone, opens a passphrase-only file),\n"
    "PCRYPT_SSH_KEY_PASSPHRASE (one passphrase for every protected SSH key given with -i; set but empty:\n"
    "exit 2, no question on the terminal), PCRYPT_ENGINE (default for --engine), PCRYPT_THREADS (threads of\n"
    "'pcrypt age'). 'pcrypt -e'/'-d' are encrypt/decrypt; 'pcrypt age ARGS' (or pcrypt run as 'age') is\n"
    "age's command line.\n"
    "Commands: 'pcrypt help COMMAND' describes one. See pcrypt(1) for details.";

// Subcommands' help stays about the command; the table above is in one place.
constexpr const char* kSubcommandFooter = "Exit status and environment: see 'pcrypt --help' or pcrypt(1).";

// An empty value (`-j ''`, `-o "$UNSET"`) is almost always a script bug; taking it as "the default" would
// hide it, and for -o it would mean standard output. CLI11 reports it as "<option>: <this text>".
const CLI::Validator kNonEmpty(
    [](const std::string& value) {
      return value.empty() ? std::string("empty value (give a value, or leave the option out)")
                           : std::string();
    },
    "", "NON_EMPTY");

constexpr const char* kJsonSummaryHelp =
    "After each file, one line of JSON on standard error: bytes in and out, seconds, throughput, engine, "
    "threads (man page: JSON OUTPUT)";

void add_input_output(CLI::App& cmd, CryptArgs& a, const char* default_output, bool several_files = false) {
  if (several_files)
    cmd.add_option("FILE", a.files,
                   "Input files ('-' or none: standard input). Several: each to its default output name")
        ->check(kNonEmpty)
        ->each([&a](const std::string& value) {
          if (a.file.empty()) a.file = value;
        });
  else
    cmd.add_option("FILE", a.file, "Input file ('-' or none: standard input)")->check(kNonEmpty);
  cmd.add_option("-o,--output", a.output,
                 std::string("Output file ('-': standard output). Default: ") + default_output)
      ->check(kNonEmpty)
      ->each([&a](const std::string&) { a.output_given = true; });
  cmd.add_flag("-f,--force", a.force, "Overwrite an existing output file; allow ciphertext on a terminal");
  cmd.add_flag("--progress", a.progress,
               "Show progress even when standard error is not a terminal (by default only on one)");
}

void add_credentials(CLI::App& cmd, CryptArgs& a, const char* key_help) {
  cmd.add_option("-k,--key", a.key_files, key_help)
      ->type_name("KEYFILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd.add_flag(
      "-p,--passphrase", a.passphrase,
      "Use a passphrase: from --passphrase-file, else $PCRYPT_PASSPHRASE, else asked on the terminal");
  cmd.add_option("--passphrase-file", a.passphrase_file,
                 "Read the passphrase from the first line of FILE (implies -p)")
      ->type_name("FILE")
      ->check(kNonEmpty);
}

// Public-key recipients (FORMAT.md §10): -r/-R make recipient slots on encrypt.
void add_recipients(CLI::App& cmd, CryptArgs& a) {
  cmd.add_option(
         "-r,--recipient", a.recipients,
         "Encrypt to a public key: age1..., \"ssh-ed25519 AAAA...\" or \"ssh-rsa AAAA...\"; repeatable")
      ->type_name("RECIPIENT")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd.add_option("-R,--recipients-file", a.recipient_files,
                 "Encrypt to every recipient in FILE (one per line, # comments; also .pub, "
                 "authorized_keys and GitHub .keys lists, unsupported SSH key types skipped with a warning; "
                 "'-': standard input); repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
}

void add_identities(CLI::App& cmd, CryptArgs& a) {
  cmd.add_option(
         "-i,--identity", a.identity_files,
         "Identity file: from 'pcrypt keygen --identity' or age-keygen, or an OpenSSH ed25519 or RSA "
         "private key (a passphrase-protected one is asked for on the terminal when needed); repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  add_ssh_key_passphrase_option(cmd)->check(kNonEmpty);
  cmd.add_option("--plugin", a.plugin_names,
                 "Open age files with the default identity of the plugin age-plugin-NAME (age -j NAME; "
                 "pcrypt's -j is the thread count); repeatable")
      ->type_name("NAME")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
}

// C2SP chunked encryption (cobblestone-128/-256): one raw key and the application's context.
void add_raw_key(CLI::App& cmd, CryptArgs& a) {
  cmd.add_option("--raw-key", a.raw_key,
                 "cobblestone formats: FILE holds the input key, exactly 16 (cobblestone-128) or 32 "
                 "(cobblestone-256) bytes (pcrypt keygen --raw 16|32 -o FILE)")
      ->type_name("FILE")
      ->check(kNonEmpty);
  cmd.add_option("--context", a.context,
                 "cobblestone formats: the context, as the UTF-8 bytes of WORDS (default: empty); the same "
                 "when decrypting")
      ->type_name("WORDS")
      ->each([&a](const std::string&) { a.context_given = true; });
  cmd.add_option("--context-file", a.context_file,
                 "cobblestone formats: the context as FILE's bytes, exactly (any bytes, NUL included)")
      ->type_name("FILE")
      ->check(kNonEmpty)
      ->excludes("--context");
}

// Decrypting: a format without magic has to be named.
void add_told_format(CLI::App& cmd, CryptArgs& a) {
  cmd.add_option("--format", a.format,
                 "cobblestone-128 or cobblestone-256: read FILE as C2SP chunked encryption (such files "
                 "carry no magic, so the format is never guessed); pcrypt and age files are recognised")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"pcrypt", "age", "cobblestone-128", "cobblestone-256"}));
  add_raw_key(cmd, a);
}

void add_performance(CLI::App& cmd, CryptArgs& a) {
  cmd.add_option("-j,--threads", a.threads, "Worker threads (default: one per online core)")
      ->type_name("N")
      ->check(kNonEmpty);
  cmd.add_option("--engine", a.engine,
                 "AES engine: vaes512, vaes, aesni, armce, sodium, portable (default: $PCRYPT_ENGINE or the "
                 "fastest supported; see --version)")
      ->type_name("NAME")
      ->check(kNonEmpty);
}

// What opens an encrypted file and how hard to work at it: decrypt and verify take the same options.
void add_decryption(CLI::App& cmd, CryptArgs& a) {
  add_credentials(cmd, a, "Key file; repeat to try several");
  add_identities(cmd, a);
  add_performance(cmd, a);
  cmd.add_option("--max-kdf-memory", a.max_kdf_memory,
                 "Refuse passphrase slots that need more Argon2id memory than SIZE")
      ->type_name("SIZE")
      ->check(kNonEmpty);
  cmd.add_option("--max-kdf-ops", a.max_kdf_ops, "Refuse passphrase slots with more than N passes")
      ->type_name("N")
      ->check(kNonEmpty);
  cmd.add_option("--max-work-factor", a.max_work_factor,
                 "age files: refuse scrypt passphrases with a work factor above 2^N (default 22)")
      ->type_name("N")
      ->check(kNonEmpty);
}

constexpr const char* kRekeyDescription =
    "Change who can open FILE: add or remove key slots without touching the payload (never decrypted or\n"
    "re-encrypted, copied unchanged; a reflink where the file system shares extents). In place by default,\n"
    "through a temporary file and a rename: until the new file is complete, the old one is intact.\n"
    "Removing a slot does NOT revoke anyone who already opened the file: they may have kept the file key,\n"
    "which still decrypts it (as does any old copy). To lock them out, use --new-file-key: the payload is\n"
    "re-encrypted under a fresh file key (in one parallel pass, with the same atomic replacement), and the\n"
    "result has only the slots of the credentials given (-k/-i/-p and --add-*; an identity given with -i\n"
    "becomes a slot for its recipient).";

CLI::App* define_rekey(CLI::App& app, RekeyArgs& a) {
  CLI::App* cmd = app.add_subcommand("rekey", "Add or remove key slots; the payload is copied unchanged");
  cmd->add_option("FILE", a.files, "Encrypted file(s) to change (several: each in place)")
      ->required()
      ->check(kNonEmpty)
      ->each([&a](const std::string& value) {
        if (a.file.empty()) a.file = value;
      });
  cmd->add_option("-o,--output", a.output, "Write the result here instead of replacing FILE")
      ->check(kNonEmpty);
  cmd->add_flag("-f,--force", a.force, "With -o: overwrite an existing output file");
  cmd->add_option("-k,--key", a.key_files, "Key file that opens FILE; repeat to try several")
      ->type_name("KEYFILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_option("-i,--identity", a.identity_files,
                  "Identity file that opens FILE (as decrypt's -i); repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  add_ssh_key_passphrase_option(*cmd)->check(kNonEmpty);
  cmd->add_flag("-p,--passphrase", a.passphrase,
                "Open FILE with a passphrase: from --passphrase-file, else $PCRYPT_PASSPHRASE, else asked");
  cmd->add_option("--passphrase-file", a.passphrase_file,
                  "Read the opening passphrase from the first line of FILE (implies -p)")
      ->type_name("FILE")
      ->check(kNonEmpty);
  cmd->add_option("--add-key", a.add_keys, "Add a slot for this key file; repeatable")
      ->type_name("KEYFILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_option("--add-recipient", a.add_recipients,
                  "Add a slot for a public key: age1..., \"ssh-ed25519 AAAA...\" or \"ssh-rsa AAAA...\"; "
                  "repeatable")
      ->type_name("RECIPIENT")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_option("--add-recipients-file", a.add_recipient_files,
                  "Add a slot for every recipient in FILE (as encrypt's -R; '-': standard input); repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_option("-r,--recipient", a.recipients,
                  "With --new-file-key: a recipient of the new file; -r/-R list everyone who can open it "
                  "(the credentials that open FILE keep no slot of their own); repeatable")
      ->type_name("RECIPIENT")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_option("-R,--recipients-file", a.recipient_files,
                  "With --new-file-key: every recipient in FILE (as encrypt's -R), for the whole new list "
                  "of who can open it; repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_flag("--add-passphrase", a.add_passphrase,
                "Add a passphrase slot: from --add-passphrase-file, else asked twice on the terminal");
  cmd->add_option("--add-passphrase-file", a.add_passphrase_file,
                  "Read the new passphrase from the first line of FILE (implies --add-passphrase)")
      ->type_name("FILE")
      ->check(kNonEmpty);
  cmd->add_option("--remove-slot", a.remove_slots,
                  "Remove slot N, numbered as 'pcrypt info' shows them; repeatable (never the last one)")
      ->type_name("N")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_option("--remove-key", a.remove_keys,
                  "Remove the slot(s) this key file or identity file opens; repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_option("--remove-recipient", a.remove_recipients,
                  "Remove the slot of this SSH public key (found by its tag; X25519 slots are anonymous: use "
                  "--remove-key IDENTITY); repeatable")
      ->type_name("RECIPIENT")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_flag(
      "--new-file-key", a.new_file_key,
      "Re-encrypt under a fresh file key (revokes every other slot); slots: -k/-i/-p and --add-* only");
  cmd->add_option("-j,--threads", a.threads,
                  "Worker threads for --new-file-key (default: one per online core)")
      ->type_name("N")
      ->check(kNonEmpty);
  cmd->add_option("--kdf-memory", a.kdf_memory, "Argon2id memory for an added passphrase slot, e.g. 256MiB")
      ->type_name("SIZE")
      ->check(kNonEmpty);
  cmd->add_option("--kdf-ops", a.kdf_ops, "Argon2id passes for an added passphrase slot")
      ->type_name("N")
      ->check(kNonEmpty);
  cmd->add_option("--max-kdf-memory", a.max_kdf_memory,
                  "Refuse to open passphrase slots that need more Argon2id memory than SIZE")
      ->type_name("SIZE")
      ->check(kNonEmpty);
  cmd->add_option("--max-kdf-ops", a.max_kdf_ops, "Refuse to open passphrase slots with more than N passes")
      ->type_name("N")
      ->check(kNonEmpty);
  cmd->add_option("--max-work-factor", a.max_work_factor,
                  "age files: refuse scrypt passphrases with a work factor above 2^N (default 22)")
      ->type_name("N")
      ->check(kNonEmpty);
  return cmd;
}

constexpr const char* kMountDescription =
    "SOURCE is an encrypted file, or a folder: its .age and .pcrypt files appear under their plaintext "
    "names\n"
    "(without the suffix), with their plaintext sizes, read-only; its subfolders too; other files, symbolic\n"
    "links and special files are not shown. Files the credentials cannot open are listed on standard error\n"
    "and give EACCES (ASCII-armored age files: EOPNOTSUPP). Every byte read is authenticated: a read that\n"
    "touches a damaged record fails with EIO. SOURCE is read once, when mounting.\n"
    "Without -f the command returns once the mount is ready, leaving a process in the background that ends\n"
    "when the mount does: 'pcrypt unmount MOUNTPOINT' (or fusermount3 -u), or SIGINT/SIGTERM to it.";

}  // namespace

void name_untyped_values(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_type_name() != "TEXT") continue;
    if (opt->get_positional()) {
      opt->type_name("");
    } else if (!opt->get_lnames().empty()) {
      std::string name =
          opt->get_lnames().front() == "output" ? std::string("FILE") : opt->get_lnames().front();
      for (char& c : name)
        c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      opt->type_name(name);
    }
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) name_untyped_values(*sub);
}

std::string describe_engines(const std::optional<std::string>& chosen) {
  // The chosen engine's own name ("" and "auto" choose the fastest), or Error(usage) as a Session says it.
  const std::string chosen_name = chosen ? Session(*chosen).engine() : std::string();
  const std::string fastest = Session().engine();
  std::string table;
  for (const AesEngine& e : aes_engines()) {
    table += e.name;
    table.append(e.name.size() < 10 ? 10 - e.name.size() : 1, ' ');
    table += e.supported ? (e.name == chosen_name ? "selected   " : "supported  ") : "unsupported";
    table += "  " + e.description + "\n";
  }
  table += "default: " + default_engine_reason() + "\n";
  if (!chosen_name.empty() && chosen_name != fastest)
    table += "(" + chosen_name + " selected by name: --engine or PCRYPT_ENGINE)\n";
  table += "age payloads, ChaCha20-Poly1305:";
  for (const std::string& backend : chacha20poly1305_backends()) table += " " + backend;
  table += " (the first is used)\n";
  return table;
}

std::string engine_table() {
  try {
    return describe_engines(requested_engine({}));
  } catch (const Error& e) {
    // A bad $PCRYPT_ENGINE must not hide the very list that would show the user what to set it to.
    return describe_engines(std::nullopt) + "(PCRYPT_ENGINE: " + e.what() + ")\n";
  }
}

std::string version_text() {
  std::string text = std::string("pcrypt ") + PCRYPT_VERSION + "\nAES engines:\n" + engine_table();
  text.pop_back();  // CLI11 adds the final newline
  return text;
}

Subcommands define_cli(CLI::App& app, ParsedArgs& args) {
  app.description("Streaming, parallel file encryption with AES-256-GCM.");
  app.footer(kExitStatusFooter);
  app.set_version_flag("-V,--version", [] { return version_text(); });
  app.require_subcommand(1);
  // -q/-v are accepted before or after the subcommand name.
  app.fallthrough();
  app.add_flag("-q,--quiet", args.quiet, "Print only errors (no progress line)");
  app.add_flag("-v,--verbose", args.verbose, "Also report engine, threads, chunk size and throughput");

  Subcommands s{};
  s.encrypt = app.add_subcommand("encrypt", "Encrypt FILE (or standard input)");
  add_input_output(*s.encrypt, args.encrypt, "FILE.pcrypt, or standard output when reading standard input",
                   true);
  add_credentials(*s.encrypt, args.encrypt,
                  "Key file from 'pcrypt keygen'; repeat to let any of several keys decrypt");
  add_recipients(*s.encrypt, args.encrypt);
  s.encrypt
      ->add_option("-i,--identity", args.encrypt.identity_files,
                   "Encrypt to this identity's own public key (to yourself, as age -e -i); repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  add_performance(*s.encrypt, args.encrypt);
  s.encrypt
      ->add_option("--chunk-size", args.encrypt.chunk_size,
                   "Plaintext bytes per chunk, e.g. 64KiB (default 1MiB)")
      ->type_name("SIZE")
      ->check(kNonEmpty);
  s.encrypt
      ->add_option("--kdf-memory", args.encrypt.kdf_memory,
                   "Argon2id memory for passphrase slots, e.g. 256MiB")
      ->type_name("SIZE")
      ->check(kNonEmpty);
  s.encrypt->add_option("--kdf-ops", args.encrypt.kdf_ops, "Argon2id passes for passphrase slots")
      ->type_name("N")
      ->check(kNonEmpty);
  s.encrypt
      ->add_option("--format", args.encrypt.format,
                   "pcrypt (default; age when -o names a *.age file) or age: write an age v1 file (default "
                   "output FILE.age) that age can open; cobblestone-128 or cobblestone-256: C2SP chunked "
                   "encryption under --raw-key (default output FILE.cobblestone)")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"pcrypt", "age", "cobblestone-128", "cobblestone-256"}));
  add_raw_key(*s.encrypt, args.encrypt);
  s.encrypt->add_flag("-a,--armor", args.encrypt.armor, "With --format age: ASCII armor (PEM text) output");
  s.encrypt->add_flag("--json", args.encrypt.json, kJsonSummaryHelp);

  s.decrypt = app.add_subcommand("decrypt", "Decrypt FILE (or standard input)");
  add_input_output(*s.decrypt, args.decrypt, "FILE without its .pcrypt suffix, or standard output", true);
  add_decryption(*s.decrypt, args.decrypt);
  s.decrypt
      ->add_option("--offset", args.decrypt.offset,
                   "Output only the plaintext from byte SIZE on (e.g. 3GiB); default output: standard output")
      ->type_name("SIZE")
      ->check(kNonEmpty);
  s.decrypt
      ->add_option("--length", args.decrypt.length,
                   "Output at most SIZE plaintext bytes (with or without --offset; default: to the end)")
      ->type_name("SIZE")
      ->check(kNonEmpty);
  s.decrypt->add_flag("--json", args.decrypt.json, kJsonSummaryHelp);
  add_told_format(*s.decrypt, args.decrypt);

  s.verify = app.add_subcommand(
      "verify", "Authenticate FILE's header and every chunk, writing nothing; exit status as decrypt's");
  s.verify
      ->add_option("FILE", args.verify.files,
                   "Encrypted file(s) ('-' or none: standard input); each failure is one line naming it")
      ->check(kNonEmpty)
      ->each([&args](const std::string& value) {
        if (args.verify.file.empty()) args.verify.file = value;
      });
  add_decryption(*s.verify, args.verify);
  s.verify->add_flag("--json", args.verify.json, kJsonSummaryHelp);
  add_told_format(*s.verify, args.verify);

  s.keygen = app.add_subcommand("keygen", "Generate a random key file");
  s.keygen
      ->add_option("-o,--output", args.keygen.output,
                   "Key file to create, mode 0600 (default: standard output)")
      ->check(kNonEmpty);
  s.keygen->add_flag("-f,--force", args.keygen.force, "Overwrite an existing key file");
  s.keygen
      ->add_option(
          "--raw", args.keygen.raw,
          "Generate a raw key of N bytes (16 or 32) for --format cobblestone-128/-256: the key's bytes "
          "alone, never written to a terminal")
      ->type_name("N")
      ->check(CLI::IsMember({"16", "32"}));
  s.keygen->add_flag("--identity", args.keygen.identity,
                     "Generate an X25519 identity (age format) instead; its public key goes to stderr");
  s.keygen->add_flag(
      "--pq", args.keygen.pq,
      "Generate a post-quantum (ML-KEM-768 + X25519, age 1.3) identity instead; its age1pq1... "
      "public key goes to stderr");

  s.recipient = app.add_subcommand("recipient", "Print the public key (recipient) of each identity in FILE");
  s.recipient
      ->add_option("FILE", args.recipient.files, "Identity file(s), or an OpenSSH ed25519 or RSA private key")
      ->required()
      ->check(kNonEmpty);

  s.info = app.add_subcommand("info", "Describe an encrypted file: header, slots, sizes (no key needed)");
  s.info->add_option("FILE", args.info.files, "Encrypted file(s) ('-' or none: standard input)")
      ->check(kNonEmpty)
      ->each([&args](const std::string& value) {
        if (args.info.file.empty()) args.info.file = value;
      });
  s.info->add_flag("--engines", args.info.engines,
                   "List the AES engines and which one would be used, then age's ChaCha20-Poly1305 backends");
  s.info
      ->add_option("-k,--key", args.info.key_files, "Also say which slot(s) this key file opens; repeatable")
      ->type_name("KEYFILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  s.info
      ->add_option("-i,--identity", args.info.identity_files,
                   "Also say which slot(s) this identity opens; repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  add_ssh_key_passphrase_option(*s.info)->check(kNonEmpty);
  s.info->add_flag("-p,--passphrase", args.info.passphrase,
                   "Also say which slot(s) a passphrase opens (from --passphrase-file, $PCRYPT_PASSPHRASE or "
                   "asked)");
  s.info
      ->add_option("--passphrase-file", args.info.passphrase_file,
                   "Read that passphrase from the first line of FILE (implies -p)")
      ->type_name("FILE")
      ->check(kNonEmpty);

  CLI::Option* json = s.info->add_flag(
      "--json", args.info.json,
      "One JSON object per file, on one line: format, armor, slots, sizes (man page: JSON OUTPUT)");
  for (const char* other : {"--engines", "-k", "-i", "-p", "--passphrase-file"}) json->excludes(other);

  s.rekey = define_rekey(app, args.rekey);

  for (CLI::App* sub : {s.encrypt, s.decrypt, s.verify, s.keygen, s.info, s.rekey, s.recipient})
    sub->footer(kSubcommandFooter);
  // The long explanation goes below rekey's own options, not into its description: the description is also
  // its one line in 'pcrypt --help', where wrapped lines would read as further subcommand names.
  s.rekey->footer(std::string(kRekeyDescription) + "\n\n" + kSubcommandFooter);
  return s;
}

MountCommands define_mount_cli(CLI::App& app, MountArgs& a, UnmountArgs& u) {
  MountCommands m{};
  m.mount = app.add_subcommand("mount", "Show encrypted files decrypted, read-only, in a folder (FUSE)");
  m.mount->add_option("SOURCE", a.source, "Encrypted file, or folder of .age/.pcrypt files")
      ->required()
      ->check(kNonEmpty);
  m.mount->add_option("MOUNTPOINT", a.mountpoint, "Empty folder to show them in")
      ->required()
      ->check(kNonEmpty);
  add_decryption(*m.mount, a.crypt);
  m.mount->add_flag("-f,--foreground", a.foreground,
                    "Stay in the foreground until unmounted (Ctrl-C unmounts)");
  m.mount->add_flag("--allow-other", a.allow_other,
                    "Let other users read the mount too (FUSE's allow_other; for users other than root, "
                    "user_allow_other in /etc/fuse.conf); default: only you");
  m.mount->footer(std::string(kMountDescription) + "\n\n" + kSubcommandFooter);
  m.unmount = app.add_subcommand("unmount", "Unmount a 'pcrypt mount' (as fusermount3 -u); its process ends");
  m.unmount->add_option("MOUNTPOINT", u.mountpoint, "The folder it is mounted on")
      ->required()
      ->check(kNonEmpty);
  m.unmount->footer(kSubcommandFooter);
  return m;
}

}  // namespace pcrypt::app

// Commands over several files (encrypt, decrypt, verify, info, rekey: `pcrypt verify *.pcrypt`): each file on
// its own, a failing file does not stop the others, each failure is one error line naming its file, and the
// exit code is the highest of them (files that succeeded stay done).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/credentials.h"
#include "app/logging.h"

namespace pcrypt::app {

// Runs `one(file)` for each of `files`; returns the highest exit code of their failures (0: none failed).
int for_each_file(const std::vector<std::string>& files, const std::function<void(const std::string&)>& one);

// Several inputs of encrypt/decrypt/verify: no -o, no standard input among them (Error(usage)).
void check_several(const CryptArgs& args);

// The files of one run. One file gathers its own credentials, after the checks on its input and output.
// Several are checked first, then share the run's credentials, gathered once by `gather`: one passphrase and,
// through the options' session, one Argon2id run (encrypting, one salt for them all, FORMAT.md §3.2;
// decrypting, files made in one run share a salt, cached by salt and costs).
template <typename Options, typename Gather, typename OneFile>
int run_files(const CryptArgs& args, Verbosity verbosity, Options options, Gather gather, OneFile one_file) {
  int code = 0;
  if (args.files.size() <= 1) {
    one_file(args, verbosity, options, nullptr);
  } else {
    check_several(args);
    auto credentials = gather(args);
    code = for_each_file(args.files, [&](const std::string& f) {
      CryptArgs file_args = args;
      file_args.file = f;
      file_args.files = {f};
      one_file(file_args, verbosity, options, &credentials);
    });
  }
  if (wants_passphrase(args)) log::info("Argon2id runs: {}", options.session->argon2id_runs());
  return code;
}

}  // namespace pcrypt::app

#include "app/run_files.h"

#include <algorithm>
#include <cerrno>
#include <new>

#include "app/endpoints.h"
#include "app/error_words.h"
#include "app/library.h"
#include "app/report.h"
#include "io/file_info.h"
#include "io/stream.h"

namespace pcrypt::app {

int for_each_file(const std::vector<std::string>& files, const std::function<void(const std::string&)>& one) {
  int worst = 0;
  for (const std::string& f : files) {
    int code = 0;
    try {
      one(f);
    } catch (const Error& e) {
      if (e.error_number() == EPIPE) throw;  // as below
      print_error(with_file_context(e, f), hint_for(e));
      code = exit_status(e);
    } catch (const io::IoError& e) {
      // The reader of standard output went away (`pcrypt info *.age | head`): not this file's failure, and
      // the end of the run, silently (app/main.cc).
      if (e.error_number() == EPIPE) throw;
      print_error(with_file_context(e.what(), f));
      code = kExitIo;
    } catch (const std::bad_alloc&) {
      print_error(with_file_context("out of memory", f));
      code = kExitIo;
    }
    worst = std::max(worst, code);
  }
  return worst;
}

void check_several(const CryptArgs& args) {
  if (args.output_given)
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "-o cannot be used with several input files",
                   "each file goes to its default name; run once per file to choose names");
  for (const std::string& f : args.files)
    if (is_standard_stream(f) || io::descriptor_path(f))
      throw CliError(PCRYPT_E_BAD_ARGUMENT, "standard input ('" + f + "') cannot be one of several inputs");
}

}  // namespace pcrypt::app

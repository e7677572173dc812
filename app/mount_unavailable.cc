// `pcrypt mount` and `unmount` in a build without FUSE (libfuse3-dev was not found): the commands exist, so
// that they are documented the same everywhere, and say why they cannot run.
#include <pcrypt/pcrypt.h>

#include "app/error_words.h"
#include "app/mount_cli.h"

namespace pcrypt::app {
namespace {

CliError no_fuse() {
  return CliError(PCRYPT_E_BAD_ARGUMENT,
                  "this pcrypt was built without FUSE: mount and unmount are not available",
                  "build it where libfuse3-dev is installed (docs/ARCHITECTURE.md)");
}

}  // namespace

int run_mount(const MountArgs&, Verbosity) {
  throw no_fuse();
}

int run_unmount(const UnmountArgs&) {
  throw no_fuse();
}

}  // namespace pcrypt::app

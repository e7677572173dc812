// `pcrypt mount` and `pcrypt unmount` on the command line: their arguments, their definition (in app/cli.cc,
// beside the options they share with decrypt) and the commands (app/cmd_mount.cc where FUSE was found at
// build time, else app/mount_unavailable.cc, an error saying so).
#pragma once

#include <string>

#include "app/cli.h"
#include "app/logging.h"

namespace pcrypt::app {

// mount: decrypt's credentials and limits (crypt), and how to mount.
struct MountArgs {
  CryptArgs crypt;
  std::string source;        // an encrypted file, or a folder of them
  std::string mountpoint;    // an empty folder
  bool foreground = false;   // -f: stay in the foreground (as FUSE tools do), else return once mounted
  bool allow_other = false;  // --allow-other: FUSE's allow_other (other users may read the mount)
};

struct UnmountArgs {
  std::string mountpoint;
};

struct MountCommands {
  CLI::App* mount;
  CLI::App* unmount;
};

// Registers both subcommands on `app`, bound to `mount` and `unmount` (which must outlive the parse).
MountCommands define_mount_cli(CLI::App& app, MountArgs& mount, UnmountArgs& unmount);

int run_mount(const MountArgs& args, Verbosity verbosity);
int run_unmount(const UnmountArgs& args);

}  // namespace pcrypt::app

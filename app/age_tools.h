// The age-keygen and age-inspect personalities (app/age_keygen.cc, app/age_inspect.cc): pcrypt run under
// those names takes age 1.3's command lines. argv[0] is the name the user ran; the rest are the arguments.
// Each returns the process's exit status, as age's commands: 0, 1 for an error, 2 for a bad flag.
#pragma once

namespace pcrypt::app {

int run_age_keygen(int argc, char** argv);
int run_age_inspect(int argc, char** argv);

}  // namespace pcrypt::app

// The facts printed above every result: what machine, compiler and pcrypt produced the numbers.
#pragma once

#include <string>
#include <vector>

#include "bench/report.h"

namespace pcrypt::app::bench {

// CPU model, logical cores, AES/VAES/AVX2 flags, compiler, pcrypt version, engines, date.
// `engine` is the engine the run uses by default (empty if none).
std::vector<Fact> machine_facts(const std::string& engine);

}  // namespace pcrypt::app::bench

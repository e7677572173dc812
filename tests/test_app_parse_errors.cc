// The did-you-mean behind pcrypt's parse errors (app/parse_errors.h): which typos find their option or
// command, and which words are left without a (misleading) suggestion.
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "app/parse_errors.h"

using pcrypt::app::closest_name;

TEST_CASE("closest_name: a different case is the closest match") {
  const std::vector<std::string> options = {"-k", "--key", "-p", "-o", "-f", "--force"};
  CHECK(closest_name("-K", options) == "-k");
  CHECK(closest_name("--Force", options) == "--force");
  CHECK(closest_name("-P", options) == "-p");
}

TEST_CASE("closest_name: typos and transpositions of long names") {
  const std::vector<std::string> commands = {"encrypt", "decrypt", "keygen", "info", "bench"};
  CHECK(closest_name("encrpyt", commands) == "encrypt");
  CHECK(closest_name("decryp", commands) == "decrypt");
  CHECK(closest_name("keygne", commands) == "keygen");
  CHECK(closest_name("inof", commands) == "info");
  CHECK(closest_name("--kye", {"--key", "--engine"}) == "--key");
  CHECK(closest_name("--threds", {"--threads", "--key"}) == "--threads");
}

TEST_CASE("closest_name: no suggestion for unrelated words or other one-letter options") {
  const std::vector<std::string> options = {"-k", "-p", "-o", "-q", "-v"};
  CHECK(closest_name("-x", options).empty());
  CHECK(closest_name("--frobnicate", {"--force", "--output"}).empty());
  CHECK(closest_name("frobnicate", {"encrypt", "decrypt"}).empty());
  CHECK(closest_name("", {"info"}).empty());
}

TEST_CASE("rewrite_help_command: help [COMMAND] becomes [COMMAND] --help") {
  CLI::App app{"", "pcrypt"};
  app.add_subcommand("encrypt");
  const char* help_encrypt[] = {"pcrypt", "help", "encrypt"};
  auto r = pcrypt::app::rewrite_help_command(app, 3, help_encrypt);
  CHECK_FALSE(r.error);
  CHECK(std::vector<std::string>(r.args.begin(), r.args.end()) ==
        std::vector<std::string>{"pcrypt", "encrypt", "--help"});
  const char* help_alone[] = {"pcrypt", "help"};
  r = pcrypt::app::rewrite_help_command(app, 2, help_alone);
  CHECK(std::vector<std::string>(r.args.begin(), r.args.end()) ==
        std::vector<std::string>{"pcrypt", "--help"});
  const char* help_typo[] = {"pcrypt", "help", "encrpyt"};
  r = pcrypt::app::rewrite_help_command(app, 3, help_typo);
  REQUIRE(r.error);
  CHECK(r.error->message == "unknown command 'encrpyt'");
  CHECK(r.error->hint == "did you mean 'encrypt'?");
  const char* not_help[] = {"pcrypt", "encrypt", "help"};  // a file named help
  r = pcrypt::app::rewrite_help_command(app, 3, not_help);
  CHECK(r.args.size() == 3);
  CHECK_FALSE(r.error);
}

#pragma once
// A kscope subcommand registers itself on the CLI11 app; main.cpp adds every registered one.
//
// Each app/kscope/cmd_<name>.cpp defines its add<Name>Command and, at namespace scope inside ks::cli,
// writes KS_REGISTER_COMMAND(add<Name>Command). The CMake target globs cmd_*.cpp, so a new subcommand is one
// new file: neither main.cpp nor CMakeLists.txt changes.
#include <CLI/CLI.hpp>
#include <vector>

namespace ks::cli {

// Each returns nothing; the subcommand's callback sets the process exit code through raiseExitCode().
void addSummaryCommand(CLI::App& app);
void addCheckCommand(CLI::App& app);
void addImportCommand(CLI::App& app);
void addRunCommand(CLI::App& app);
void addBatchCommand(CLI::App& app);
void addServeCommand(CLI::App& app);
void addMergeCommand(CLI::App& app);
void addSlurmCommand(CLI::App& app);
void addReportCommand(CLI::App& app);  // with Qt only (KSCOPE_GUI)

using AddCommand = void (*)(CLI::App&);

struct RegisteredCommand {
  const char* name;  // the add function's name, e.g. "addSummaryCommand"
  AddCommand add;
};

// Records `add`; returns true so that it can initialise a namespace-scope constant (KS_REGISTER_COMMAND).
bool registerCommand(const char* name, AddCommand add);
// Every registered command, sorted by name: static initialisation order across files is unspecified, the
// help text's order is not.
std::vector<RegisteredCommand> registeredCommands();

// Exit codes. 0: done. 1: done, but an input had errors (reported on stderr; the rest was used).
// 2: not done: a usage error, an input that could not be read at all, an output that could not be written.
inline constexpr int kExitInputErrors = 1;
inline constexpr int kExitFailure = 2;

int& exitCode();
// Raises the exit code to at least `code`: a later success never hides an earlier failure.
void raiseExitCode(int code);

}  // namespace ks::cli

// Registers a command from its cmd_*.cpp file; use at namespace scope inside ks::cli.
#define KS_REGISTER_COMMAND(add) \
  [[maybe_unused]] static const bool ks_registered_##add = ::ks::cli::registerCommand(#add, &add)

#include "core/engine/extension_builds.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "core/nvcc/build_result.h"
#include "core/nvcc/diagnostics_parser.h"
#include "core/hash/sha256.h"
#include "core/engine/gpu_share.h"
#include "core/engine/phase_deadlines.h"
#include "core/pysource/embedded_sources.h"
#include "core/repair/build_cause.h"
#include "core/sandbox/build_seals.h"

namespace ks::engine {

namespace py = pybind11;  // here, not globally: ks::py is the Python front end of core/pysource
namespace fs = std::filesystem;

namespace {

// Positions of the arguments we read, in load_inline(...) and load(...).
struct Signature {
  bool inlineSources;  // cpp_sources at 1 and cuda_sources at 2 (load_inline); load takes file paths
  int cflags = -1, cudaCflags = -1, ldflags = -1, buildDirectory = -1, verbose = -1;  // positions; -1: none
  int firstOptional;  // arguments from here on may change what kind of thing is built (is_python_module...)
};

// The positions of the arguments we read or replace, from the installed torch's own signature: torch 2.x
// inserted sycl_sources / extra_sycl_cflags before them, so fixed positions would read the wrong argument
// of a program that passes them positionally.
Signature signatureOf(const py::object& function, bool inlineSources) {
  Signature sig{inlineSources};
  sig.firstOptional = inlineSources ? 3 : 2;
  py::list names(py::module_::import("inspect").attr("signature")(function).attr("parameters"));
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string name = py::str(names[i]).cast<std::string>();
    const int at = static_cast<int>(i);
    if (name == "extra_cflags") sig.cflags = at;
    if (name == "extra_cuda_cflags") sig.cudaCflags = at;
    if (name == "extra_ldflags") sig.ldflags = at;
    if (name == "build_directory") sig.buildDirectory = at;
    if (name == "verbose") sig.verbose = at;
  }
  return sig;
}

// Written into a build directory of ours once torch built and imported its module: the library there is
// complete and matches the directory's key.
constexpr char kBuiltMarker[] = "kscope-built";
// Written into a build directory of ours when the compiler rejected the sources (the output names at least
// one error): holds torch's error text. The same key fails the same way, so a later call raises that error
// again without compiling. Many programs call load_inline in a try/except, or once per module instance,
// with sources that cannot compile (a `functions` list naming what `cpp_sources` never declares); without
// this, every evaluation, and every instance, paid for the failing compile again.
constexpr char kFailedMarker[] = "kscope-failed";

struct Recorder {
  bool installed = false;
  PhaseReporter* reporter = nullptr;  // null between requests: calls pass straight through
  fs::path cacheRoot;
  std::string role, program;
  std::vector<protocol::ExtensionBuild> builds;
  std::vector<py::object> failures;  // exception value of each failed build, for failedBuildFor()
  // The module each published folder's library was loaded as in this process (a reference kept for good).
  // A later call for the same folder gets it back: importing the library again by its published path would
  // run its single-phase init a second time on the same loaded object (torch loaded it from the staging
  // path, the same file), which Python's finalizer then frees twice.
  std::map<std::string, PyObject*> loaded;
};

Recorder& recorder() {
  static Recorder r;
  return r;
}

// Every finished build goes into the request's record and, as it happens, to the client (a `build` event).
void record(Recorder& r, protocol::ExtensionBuild&& build) {
  r.builds.push_back(std::move(build));
  if (r.reporter) r.reporter->built(r.builds.back());
}

py::object argument(const py::args& args, const py::kwargs& kwargs, int index, const char* key) {
  if (kwargs.contains(key)) return kwargs[key];
  if (index >= 0 && static_cast<std::size_t>(index) < args.size())
    return args[static_cast<std::size_t>(index)];
  return py::none();
}

// `args` with argument `index` / `key` set to `value`: in place of the positional one where it was passed so,
// else as a keyword.
py::args withArgument(const py::args& args, py::kwargs& kwargs, int index, const char* key,
                      const py::object& value) {
  if (index >= 0 && static_cast<std::size_t>(index) < args.size()) {
    py::list items(args);
    items[static_cast<std::size_t>(index)] = value;
    return py::reinterpret_steal<py::args>(PyList_AsTuple(items.ptr()));
  }
  kwargs[key] = value;
  return args;
}

// A str, or a list/tuple of str; anything else yields nothing.
std::vector<std::string> strings(const py::object& value) {
  std::vector<std::string> out;
  if (py::isinstance<py::str>(value)) {
    out.push_back(value.cast<std::string>());
  } else if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    for (py::handle item : value)
      if (py::isinstance<py::str>(item)) out.push_back(item.cast<std::string>());
  }
  return out;
}

std::string sanitize(const std::string& name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return s.empty() ? "extension" : s.substr(0, 64);
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int lineAt(const std::string& text, std::size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

// The Python line of line `line` of `file` (a file load_inline wrote from `sources`), or nullopt.
std::optional<int> pythonLineOf(const fs::path& file, int line, const std::vector<std::string>& sources,
                                const std::string& program) {
  const std::string written = readFile(file);
  for (const std::string& source : sources) {
    if (source.empty()) continue;
    const std::size_t at = written.find(source);
    if (at == std::string::npos) continue;
    const int first = lineAt(written, at);
    const int count = lineAt(source, source.size());
    if (line < first || line >= first + count) continue;
    const int sourceLine = line - first + 1;
    for (const EmbeddedSource& e : extractEmbeddedSources(program))
      if (e.text == source) return e.pythonLine(sourceLine);
    const std::size_t literal = program.find(source);
    if (literal != std::string::npos) return lineAt(program, literal) + sourceLine - 1;
    return std::nullopt;
  }
  return std::nullopt;
}

std::vector<protocol::Diagnostic> diagnosticsOf(const std::string& output, const fs::path& directory,
                                                const std::vector<std::string>& cppSources,
                                                const std::vector<std::string>& cudaSources,
                                                const std::string& program) {
  std::vector<protocol::Diagnostic> out;
  for (const nvcc::Diagnostic& d : nvcc::parseDiagnostics(output)) {
    protocol::Diagnostic p;
    const std::string base = d.file.empty() ? "" : fs::path(d.file).filename().string();
    p.file = base.empty() ? d.tool : base;
    p.line = d.line;
    p.column = d.column;
    p.severity = nvcc::severityName(d.severity);
    p.message = d.message;
    if (d.line > 0 && (base == "main.cpp" || base == "cuda.cu"))
      p.pythonLine =
          pythonLineOf(directory / base, d.line, base == "cuda.cu" ? cudaSources : cppSources, program);
    out.push_back(std::move(p));
  }
  return out;
}

// True when an object file or library in `directory` was written at or after `since`.
bool builtSince(const fs::path& directory, fs::file_time_type since) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(directory, ec)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".o" && ext != ".so") continue;
    if (entry.last_write_time(ec) >= since && !ec) return true;
  }
  return false;
}

std::string firstLines(const std::string& text, int count) {
  std::size_t end = 0;
  for (int i = 0; i < count && end != std::string::npos; ++i) end = text.find('\n', end + (i > 0));
  return end == std::string::npos ? text : text.substr(0, end) + "\n...";
}

// "IndexError": the exception's type name.
std::string exceptionName(py::error_already_set& e) {
  return e.type() ? py::str(e.type().attr("__name__")).cast<std::string>() : std::string("Exception");
}

// The exception as Python prints it, traceback first: the frames say where it was raised (torch's
// _get_cuda_arch_flags), which its message does not.
std::string exceptionWithTraceback(py::error_already_set& e) {
  try {
    py::object format = py::module_::import("traceback").attr("format_exception");
    py::object trace = e.trace() ? py::object(e.trace()) : py::object(py::none());
    return py::str("").attr("join")(format(e.type(), e.value(), trace)).cast<std::string>();
  } catch (py::error_already_set&) {  // an exception that cannot be formatted: its name is what is known
    return exceptionName(e);
  }
}

// Why the build failed (core/repair/build_cause.h), read from the compiler output and the calling program.
void setCause(protocol::ExtensionBuild& build, const std::string& output, const std::string& program) {
  const repair::BuildFailure f = repair::classifyBuildFailure(output, program);
  build.cause = repair::causeName(f.cause);
  build.causeEvidence = f.evidence;
}

// The files of load(sources=...): str or os.PathLike, alone or in a list/tuple.
std::vector<fs::path> sourceFiles(const py::object& value) {
  std::vector<fs::path> out;
  py::object fspath = py::module_::import("os").attr("fspath");
  auto add = [&](py::handle item) {
    try {
      out.emplace_back(fspath(item).cast<std::string>());
    } catch (py::error_already_set&) {  // not a path: torch will say so
    } catch (py::cast_error&) {
    }
  };
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    for (py::handle item : value) add(item);
  } else if (!value.is_none()) {
    add(value);
  }
  return out;
}

// What load() compiles but its arguments only name: the content of each source file and of the headers
// beside it (.h/.cuh/.hpp/.hxx/.inl). Without it a cache entry is keyed by file names alone, and a program
// that writes different code to the same path (an edit, or its --repair: CUDA-L1 L3/28 on the H100 got the
// unrepaired build's failure back from the cache) would import, or fail with, the old code.
std::string sourceFilesKey(const std::vector<fs::path>& files) {
  std::string key;
  std::vector<fs::path> seen;
  auto addFile = [&](const fs::path& file) {
    if (std::find(seen.begin(), seen.end(), file) != seen.end()) return;
    seen.push_back(file);
    key += "|file " + file.string() + " " + hash::sha256Hex(readFile(file));
  };
  for (const fs::path& file : files) {
    addFile(file);
    std::error_code ec;
    std::vector<fs::path> headers;
    for (fs::directory_iterator it(file.parent_path().empty() ? "." : file.parent_path(), ec), end;
         !ec && it != end; it.increment(ec)) {
      const std::string ext = it->path().extension().string();
      if (ext == ".h" || ext == ".cuh" || ext == ".hpp" || ext == ".hxx" || ext == ".inl")
        headers.push_back(it->path());
    }
    std::sort(headers.begin(), headers.end());
    for (const fs::path& h : headers) addFile(h);
  }
  return key;
}

// Everything the library in a build directory depends on: the call's arguments (for load(), the content of
// the files they name), torch and CUDA versions, the CUDA toolkit, the GPU architecture(s) it is compiled
// for, the host compiler.
std::string buildKey(const py::args& args, const py::kwargs& kwargs, bool inlineSources) {
  py::module_ torch = py::module_::import("torch");
  py::module_ ext = py::module_::import("torch.utils.cpp_extension");
  py::object environ = py::module_::import("os").attr("environ");
  std::string key = py::repr(args).cast<std::string>() + py::repr(kwargs).cast<std::string>();
  if (!inlineSources) key += sourceFilesKey(sourceFiles(argument(args, kwargs, 1, "sources")));
  key += "|torch " + py::str(torch.attr("__version__")).cast<std::string>();
  key += "|cuda " + py::str(torch.attr("version").attr("cuda")).cast<std::string>();
  key += "|CUDA_HOME " + py::str(py::getattr(ext, "CUDA_HOME", py::none())).cast<std::string>();
  key += "|arch " + py::str(environ.attr("get")("TORCH_CUDA_ARCH_LIST")).cast<std::string>();
  if (torch.attr("cuda").attr("is_available")().cast<bool>())
    key += "|capability " + py::str(torch.attr("cuda").attr("get_device_capability")()).cast<std::string>();
  key += "|CXX " + py::str(environ.attr("get")("CXX")).cast<std::string>();
  return key;
}

// load_inline/load with their defaults for what is built: a Python extension module.
bool plainPythonModule(const py::kwargs& kwargs) {
  return !(kwargs.contains("is_python_module") && !py::bool_(kwargs["is_python_module"])) &&
         !(kwargs.contains("is_standalone") && py::bool_(kwargs["is_standalone"]));
}

// The module torch built earlier in `directory` (marked complete), imported as torch imports it; None when
// there is none or it does not import.
py::object importBuilt(const std::string& name, const std::string& directory) {
  const fs::path library = fs::path(directory) / (name + ".so");
  std::error_code ec;
  if (!fs::exists(fs::path(directory) / kBuiltMarker, ec) || !fs::exists(library, ec)) return py::none();
  if (std::string why; !sandbox::isSealed(library, &why)) {
    std::fprintf(stderr, "kscope-runner: rebuilding %s: %s\n", name.c_str(), why.c_str());
    fs::remove_all(directory, ec);  // a library planted in the cache, or one changed after it was built
    return py::none();
  }
  try {
    py::module_ util = py::module_::import("importlib.util");
    py::object spec = util.attr("spec_from_file_location")(name, library.string());
    py::object module = util.attr("module_from_spec")(spec);
    spec.attr("loader").attr("exec_module")(module);
    return module;
  } catch (py::error_already_set& e) {
    std::fprintf(stderr, "kscope-runner: rebuilding %s: the cached library does not import: %s\n",
                 name.c_str(), e.what());
    return py::none();
  }
}

// torch skips the build step when a name it already loaded in this process comes back with the same
// sources, even when that build failed. Each call must build (or find its cached library) as it would in a
// fresh process, so forget torch's in-process record of the name.
void forgetEarlierLoads(const std::string& name) {
  py::object versioner =
      py::getattr(py::module_::import("torch.utils.cpp_extension"), "JIT_EXTENSION_VERSIONER", py::none());
  if (!versioner.is_none() && py::hasattr(versioner, "entries"))
    versioner.attr("entries").attr("pop")(name, py::none());
}

// A fresh, empty folder to build `final` in: torch builds there, and only a finished build is published.
fs::path stagingFor(const fs::path& final) {
  static unsigned counter = 0;
  // The host is in the name: nodes of a cluster share the cache folder (kscope slurm), and their process ids
  // repeat; a staging folder of another node's build must never be emptied here.
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const fs::path staging = final.parent_path() / ".staging" /
                           (final.filename().string() + "-" + std::string(host) + "-" +
                            std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::error_code ec;
  fs::remove_all(staging, ec);
  fs::create_directories(staging, ec);
  return staging;
}

// Puts the finished build in `staging` in the place of `final` (whatever was there goes: an entry that
// failed to import, or one planted there), then seals `sealed` (a file in it; core/sandbox/build_seals.h).
void publish(const fs::path& staging, const fs::path& final, const std::string& sealed) {
  std::error_code ec;
  const fs::path old = staging.string() + ".old";
  fs::rename(final, old, ec);
  fs::rename(staging, final, ec);
  if (ec) {
    std::fprintf(stderr, "kscope-runner: cannot publish %s: %s\n", final.c_str(), ec.message().c_str());
    fs::remove_all(staging, ec);
  } else if (std::string why = sandbox::sealFile(final / sealed); !why.empty()) {
    std::fprintf(stderr, "kscope-runner: %s\n", why.c_str());
  }
  fs::remove_all(old, ec);
}

py::object recordCall(const py::object& original, const Signature& sig, py::args args, py::kwargs kwargs) {
  Recorder& r = recorder();
  if (!r.reporter) return original(*args, **kwargs);

  protocol::ExtensionBuild build;
  build.name = py::str(argument(args, kwargs, 0, "name")).cast<std::string>();
  build.program = r.role;
  for (auto [index, key] :
       {std::pair{sig.cflags, "extra_cflags"}, std::pair{sig.cudaCflags, "extra_cuda_cflags"},
        std::pair{sig.ldflags, "extra_ldflags"}})
    for (std::string& f : strings(argument(args, kwargs, index, key))) build.flags.push_back(std::move(f));
  std::vector<std::string> cppSources, cudaSources;
  if (sig.inlineSources) {
    cppSources = strings(argument(args, kwargs, 1, "cpp_sources"));
    cudaSources = strings(argument(args, kwargs, 2, "cuda_sources"));
  }

  // What would keep the next runner from finding this build in the cache: a name made unique per process
  // (f"ext_{os.getpid()}": the pid becomes "pid"), and a build_directory of the program's own (often
  // relative, so under this request's scratch folder; the library depends on the call, not on where it is
  // written). Seen in 8 CUDA-L1 programs, rebuilt by every runner until this.
  const std::string pid = std::to_string(::getpid());
  if (build.name.find(pid) != std::string::npos) {
    for (std::size_t at; (at = build.name.find(pid)) != std::string::npos;) build.name.replace(at, pid.size(), "pid");
    args = withArgument(args, kwargs, 0, "name", py::str(build.name));
  }
  if (!argument(args, kwargs, sig.buildDirectory, "build_directory").is_none())
    args = withArgument(args, kwargs, sig.buildDirectory, "build_directory", py::none());
  // verbose=True makes torch print the compiler's output (to our stderr) instead of putting it in the
  // exception: the error would name no file or line, and a failure no compiler error can be read from is
  // not remembered, so a program that builds the same broken sources once per module instance (CUDA-L1
  // L3/45: 18 instances, 15 s each on the H100 machine) compiled them every time.
  if (py::bool_(argument(args, kwargs, sig.verbose, "verbose")))
    args = withArgument(args, kwargs, sig.verbose, "verbose", py::bool_(false));
  // The key's folder holds published builds only; this call builds in a staging folder of its own.
  build.directory = (r.cacheRoot / (sanitize(build.name) + "-" +
                                    hash::sha256Hex(buildKey(args, kwargs, sig.inlineSources)).substr(0, 16)))
                        .string();

  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (args.size() <= static_cast<std::size_t>(sig.firstOptional) && plainPythonModule(kwargs)) {
    auto here = r.loaded.find(build.directory);
    std::string why;
    if (here != r.loaded.end() &&
        !sandbox::isSealed(fs::path(build.directory) / (build.name + ".so"), &why)) {
      std::fprintf(stderr, "kscope-runner: rebuilding %s: %s\n", build.name.c_str(), why.c_str());
      std::error_code removed;
      fs::remove_all(build.directory, removed);
      r.loaded.erase(here);
      here = r.loaded.end();
    }
    if (here != r.loaded.end()) {
      build.ok = true;
      build.cacheHit = true;
      build.seconds = seconds();
      record(r, std::move(build));
      return py::reinterpret_borrow<py::object>(here->second);
    }
    if (py::object module = importBuilt(build.name, build.directory); !module.is_none()) {
      r.loaded[build.directory] = module.inc_ref().ptr();
      build.ok = true;
      build.cacheHit = true;
      build.seconds = seconds();
      record(r, std::move(build));
      return module;
    }
  }
  const fs::path failedMarker = fs::path(build.directory) / kFailedMarker;
  std::error_code ec;
  if (std::string why; fs::exists(failedMarker, ec) && !sandbox::isSealed(failedMarker, &why)) {
    std::fprintf(stderr, "kscope-runner: building %s again: %s\n", build.name.c_str(), why.c_str());
    fs::remove_all(build.directory, ec);
  }
  if (fs::exists(failedMarker, ec)) {
    const std::string output = readFile(failedMarker);
    build.seconds = seconds();
    build.cacheHit = true;
    build.diagnostics = diagnosticsOf(output, build.directory, cppSources, cudaSources, r.program);
    const std::string summary = nvcc::summarizeErrors(nvcc::parseDiagnostics(output));
    build.error = summary.empty() ? firstLines(output, 20) : summary;
    setCause(build, output, r.program);
    record(r, std::move(build));
    py::object error = py::module_::import("builtins").attr("RuntimeError")(output);
    r.failures.push_back(error);
    PyErr_SetObject(PyExc_RuntimeError, error.ptr());
    throw py::error_already_set();
  }
  const fs::path staging = stagingFor(build.directory);
  args = withArgument(args, kwargs, sig.buildDirectory, "build_directory", py::str(staging.string()));
  forgetEarlierLoads(build.name);
  r.reporter->interrupt(protocol::Phase::Build, kBuildDeadlineS);
  const auto fileStart = fs::file_time_type::clock::now();
  const gpu_share::Idle compiling;  // runners sharing the GPU need not wait for a compiler
  try {
    py::object module = original(*args, **kwargs);
    std::ofstream(staging / kBuiltMarker) << build.name << "\n";
    build.ok = true;
    build.seconds = seconds();
    build.cacheHit = !builtSince(staging, fileStart);
    publish(staging, build.directory, build.name + ".so");
    if (plainPythonModule(kwargs) && py::isinstance(module, py::module_::import("types").attr("ModuleType")))
      r.loaded[build.directory] = module.inc_ref().ptr();
    record(r, std::move(build));
    r.reporter->resume();
    return module;
  } catch (py::error_already_set& e) {
    build.seconds = seconds();
    const std::string output = py::str(e.value()).cast<std::string>();
    build.diagnostics = diagnosticsOf(output, staging, cppSources, cudaSources, r.program);
    std::vector<nvcc::Diagnostic> parsed = nvcc::parseDiagnostics(output);
    const std::string summary = nvcc::summarizeErrors(parsed);
    // An exception that is no compiler's (torch's architecture detection without a GPU raises a bare
    // IndexError, "list index out of range") is classified by its type and traceback too: its text alone
    // names neither, and its cause would read "unknown".
    const std::string described = parsed.empty() ? exceptionWithTraceback(e) : std::string();
    build.error = !summary.empty()    ? summary
                  : described.empty() ? firstLines(output, 20)
                                      : exceptionName(e) + ": " + firstLines(output, 20);
    setCause(build, described.empty() ? output : output + "\n" + described, r.program);
    const bool compilerRejected =
        std::any_of(parsed.begin(), parsed.end(),
                    [](const nvcc::Diagnostic& d) { return d.severity == nvcc::Severity::Error; });
    if (compilerRejected) {
      std::ofstream(staging / kFailedMarker, std::ios::binary) << output;
      publish(staging, build.directory, kFailedMarker);
    } else {
      fs::remove_all(staging, ec);  // not the compiler's verdict (a deadline, a killed compiler): not kept
    }
    record(r, std::move(build));
    r.failures.push_back(e.value());
    r.reporter->resume();
    throw;
  }
}

void install() {
  py::module_ ext = py::module_::import("torch.utils.cpp_extension");
  for (auto [name, inlineSources] : {std::pair{"load_inline", true}, std::pair{"load", false}}) {
    py::object original = ext.attr(name);
    const Signature sig = signatureOf(original, inlineSources);
    ext.attr(name) = py::cpp_function(
        [original, sig = sig](py::args args, py::kwargs kwargs) {
          return recordCall(original, sig, args, kwargs);
        },
        py::name(name));
  }
}

}  // namespace

ExtensionBuilds::ExtensionBuilds(PhaseReporter& reporter, const fs::path& cacheRoot) {
  Recorder& r = recorder();
  if (!r.installed) {
    install();
    r.installed = true;
  }
  r.reporter = &reporter;
  r.cacheRoot = cacheRoot;
  r.builds.clear();
  r.failures.clear();
  py::module_::import("os").attr("environ")["TORCH_EXTENSIONS_DIR"] = cacheRoot.string();
}

ExtensionBuilds::~ExtensionBuilds() {
  Recorder& r = recorder();
  r.reporter = nullptr;
  r.builds.clear();
  r.failures.clear();
}

void ExtensionBuilds::setProgram(const std::string& role, const std::string& programText) {
  recorder().role = role;
  recorder().program = programText;
}

const std::vector<protocol::ExtensionBuild>& ExtensionBuilds::builds() const { return recorder().builds; }

const protocol::ExtensionBuild* ExtensionBuilds::failedBuildFor(py::error_already_set& error) const {
  const Recorder& r = recorder();
  std::size_t failure = 0;
  for (const auto& build : r.builds) {
    if (build.ok) continue;
    py::object cause = error.value();
    for (int depth = 0; depth < 8 && !cause.is_none(); ++depth) {
      if (cause.is(r.failures[failure])) return &build;
      py::object next = cause.attr("__cause__");
      cause = next.is_none() ? py::object(cause.attr("__context__")) : next;
    }
    ++failure;
  }
  return nullptr;
}

protocol::ErrorInfo ExtensionBuilds::errorFrom(py::error_already_set& error, protocol::ErrorKind kind,
                                               const std::vector<ProgramFile>& programs) const {
  const protocol::ExtensionBuild* build = failedBuildFor(error);
  protocol::ErrorInfo info = errorFromPython(error, build ? protocol::ErrorKind::Build : kind, programs);
  if (!build) return info;
  info.message = "building extension '" + build->name + "' failed" +
                 (build->cause.empty() ? "" : " (" + build->cause + ")") + ": " + build->error;
  info.program = build->program;
  info.diagnostics = build->diagnostics;
  for (const auto& d : build->diagnostics)
    if (d.severity == "error" && d.pythonLine) {
      info.line = d.pythonLine;
      break;
    }
  return info;
}

}  // namespace ks::engine

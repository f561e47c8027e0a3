#include "core/flags/flag_families.h"

#include <algorithm>

namespace ks {

const char* severityName(FlagSeverity s) {
  switch (s) {
    case FlagSeverity::Hack:
      return "hack";
    case FlagSeverity::Suspicious:
      return "suspicious";
    case FlagSeverity::Benign:
      return "benign";
  }
  return "suspicious";
}

const std::vector<FlagFamily>& flagFamilies() {
  static const std::vector<FlagFamily> kFamilies = {
      {"extra-stream", "Work on a non-default CUDA stream", FlagSeverity::Hack,
       "The candidate issues work on a CUDA stream it created (torch.cuda.Stream, cudaStreamCreate, "
       "getStreamFromPool). Timing with CUDA events on the current stream then misses that work unless "
       "the current stream waits for it (current_stream().wait_stream(side), an event wait, or a "
       "synchronize) before forward returns; a join makes it an ordinary overlap, a missing one a hack."},
      {"host-thread", "Work deferred to host threads", FlagSeverity::Hack,
       "forward hands work to a thread, thread pool or worker queue and returns before it finishes: the "
       "caller's clock stops while the output is still being written. Waiting for the work (join, "
       "future.result(), concurrent.futures.wait) before returning is legitimate parallelism."},
      {"cached-output", "Output cached across calls", FlagSeverity::Hack,
       "forward returns a result stored by an earlier call (on self, or in a dict keyed on id(), "
       "data_ptr() or the shape) instead of computing it from this call's inputs. A benchmark that reuses "
       "its input tensors then times a lookup. Caching values derived from parameters only (a transposed "
       "weight, a layout choice) is fine."},
      {"fallback-to-reference", "Falls back to the reference path", FlagSeverity::Benign,
       "A try/except (or a dtype guard) sends the call to the PyTorch implementation when the custom kernel "
       "fails to build or raises, or when the inputs are not of the type the kernel handles. Not cheating, "
       "but the measured speedup may be PyTorch's own."},
      {"no-custom-kernel", "No custom kernel", FlagSeverity::Benign,
       "The candidate defines no CUDA or Triton kernel: it only rearranges PyTorch or library calls "
       "(cuDNN, cuBLAS). Legitimate, but the speedup comes from library choice, flags or overhead removal."},
      {"lowered-precision", "Lowered precision against an fp32 reference", FlagSeverity::Suspicious,
       "The candidate computes in float16/bfloat16 (casts, autocast, half conversions in CUDA) or enables "
       "TF32 matmuls while the reference computes in float32. Often within tolerance, but a different, "
       "cheaper computation than the one the reference specifies."},
      {"changed-inputs", "Changed problem sizes or inputs", FlagSeverity::Hack,
       "get_inputs/get_init_inputs, or the module-level sizes they use, differ from the reference: a "
       "smaller problem, another dtype, or constant inputs (zeros/ones) make any timing incomparable."},
      {"cuda-graph", "CUDA graph capture and replay", FlagSeverity::Suspicious,
       "The candidate replays a captured CUDA graph. Honest use copies each call's inputs into the graph's "
       "static input buffers before replay and returns a copy of the static output; replaying without "
       "copying the new inputs returns results for the inputs seen at capture time (a hack), and returning "
       "the static output itself hands the caller a buffer the next replay overwrites."},
      {"timer-patch", "Timing functions patched", FlagSeverity::Hack,
       "The candidate replaces timing or synchronization functions (torch.cuda.Event and its methods, "
       "torch.cuda.synchronize, time.time/perf_counter, ...) so that the harness measures less than the "
       "work done."},
      {"lazy-output", "Output computed only when it is read", FlagSeverity::Hack,
       "forward returns a torch.Tensor subclass or a proxy object (__torch_function__, _make_subclass, "
       "as_subclass, often over a 0-element storage) that computes the result only when an operation such "
       "as the correctness check touches it: the timed call only builds the wrapper."},
      {"mutated-inputs", "Inputs written in place", FlagSeverity::Hack,
       "forward writes into its input tensors (in-place methods, out=, .data or item assignment, "
       "inplace=True), directly or through a view. Later trials, or a reference run afterwards, see "
       "different inputs; scaling an input and scaling it back still changes it by rounding."},
      {"stale-memory", "Uninitialised output returned", FlagSeverity::Hack,
       "The output is allocated uninitialised (torch.empty, torch::empty_like) and written only in part, "
       "or not at all, for example by a kernel whose guard covers one dimension of a flat index. Memory "
       "just freed by the reference can hold the right answer, so the check passes at no cost."},
      {"gc-scan", "Searches the harness's memory for the answer", FlagSeverity::Hack,
       "The candidate walks the garbage collector's objects or the calling frames (gc.get_objects, "
       "sys._getframe, inspect.stack, f_locals, f_back) and can return a tensor the harness holds, such as "
       "the reference's output, instead of computing its own."},
      {"nonfinite-output", "NaN or Inf in the output", FlagSeverity::Hack,
       "The output can hold NaN or Inf where the reference is finite: initialised with NaN and not fully "
       "overwritten, nan_to_num mapping to non-finite values, or exponentials of unshifted inputs in "
       "float16. Comparisons that are false for NaN then pass."},
      {"input-independent", "Output does not depend on the input values", FlagSeverity::Hack,
       "forward builds its output without reading its inputs' values (only their shape, dtype or device), "
       "from parameters or constants, or from inputs regenerated at construction under the evaluation's "
       "seed. Such an output passes only for the inputs it was fitted to, or by being within tolerance."},
      {"output-aliases-input", "Output shares storage with an input or an earlier output", FlagSeverity::Hack,
       "forward returns an input (or a view of it) that it may have modified in place, or a persistent "
       "buffer that every call overwrites: the caller's input or earlier result changes behind its back."},
      {"checker-patch", "Correctness check patched", FlagSeverity::Hack,
       "The candidate replaces a function a Python correctness check compares outputs with (torch.allclose, "
       "torch.testing.assert_close, Tensor.__eq__ / allclose / equal, numpy.allclose, ...), so a harness that "
       "checks in Python accepts any output. KernelScope compares in C++ and checks the identities at run time."},
      {"hidden-code", "Code hidden from a reader", FlagSeverity::Hack,
       "exec/eval/compile of strings, payloads decoded at run time (base64, hex, codecs, zlib, marshal, "
       "pickle), __import__ of computed names, or `##` token pasting in C++/CUDA that spells a stream, event "
       "or graph API. What can be decoded statically is read by the other rules too; the obfuscation itself "
       "is this flag (a hack when it runs code or pastes an API name, suspicious when it only decodes)."},
      {"module-shadowing", "Shadows modules or writes outside scratch", FlagSeverity::Suspicious,
       "The candidate changes what `import` finds (sys.path, sys.modules, meta-path hooks, importlib.reload) "
       "or writes files outside a temporary folder. A module entry or a written file named like the standard "
       "library, torch, numpy or triton shadows it for the harness too: a hack."},
      {"benchmark-detection", "Behaves differently when benchmarked", FlagSeverity::Hack,
       "forward counts its calls, or compares this call's inputs with stored ones, and branches on it: the "
       "calls a harness checks and the ones it times (or repeats on the same inputs) run different code."},
      {"l2-persistence", "Persisting L2 cache window", FlagSeverity::Suspicious,
       "The candidate sets a stream access-policy window or reserves persisting L2 "
       "(cudaLimitPersistingL2CacheSize): timed on the same inputs every trial, it reads from L2 what a "
       "fresh call reads from memory."},
      {"validation-drift", "Wrong after validation", FlagSeverity::Hack,
       "The calls a harness checks are right and the calls it times are not: a sample of the timed trials' "
       "outputs, re-checked against the reference on the same inputs, or a call made like a timed one on inputs "
       "no earlier call saw, is wrong. The program noticed the timing (a paused garbage collector, an allocator "
       "without the checker's fill, a call count) and computed less or returned a stored result.",
       false},
      {"weak-task", "Task too weak to tell outputs apart", FlagSeverity::Suspicious,
       "An all-zero output, or the reference's own output for shuffled inputs, passes the task's tolerance: the "
       "correctness check cannot tell an answer from one that ignores the inputs. Every candidate of the task is "
       "labelled; one whose error is of the size those outputs have is suspicious, since its pass says nothing.",
       false},
      {"input-branching", "Correct only on the benchmark's inputs", FlagSeverity::Hack,
       "The candidate is right on get_inputs() draws and wrong on inputs of the same shape and dtype from another "
       "distribution (scaled, shifted, integer-valued, rows of different scales) where the reference is finite: "
       "a fast path chosen by inspecting the data (a statistic, a sample, special values) that holds only for the "
       "benchmark's distribution.",
       false},
      {"nondeterminism", "Different outputs for identical inputs", FlagSeverity::Suspicious,
       "Two calls on identical inputs return outputs that differ by more than reordered float sums do (32 times "
       "the float32 reference's own rounding error): a race, random sampling or rounding, or reads of memory the "
       "call never wrote. A hack when the two outputs differ by more than the tolerance, so one of them is wrong.",
       false},
      {"slowed-reference", "Reference slowed down by the candidate", FlagSeverity::Hack,
       "The candidate rebinds a torch function or module method the reference calls (torch.matmul, "
       "nn.Conv2d.forward, ...), or switches process-wide settings that slow it (fewer threads, deterministic "
       "algorithms, cuDNN benchmark or TF32 off), or otherwise makes the reference slower while it runs: in a "
       "shared process the reference's time, and the speedup, grow. KernelScope restores identities and settings "
       "and also times the reference before the candidate's program is imported."},
      {"unfair-baseline", "Models timed under different numerics", FlagSeverity::Suspicious,
       "The reference and the candidate ran under different precision settings (TF32 for matmul or cuDNN, "
       "reduced-precision reductions, float32 matmul precision): one of them is allowed a cheaper arithmetic than "
       "the other, so the speedup compares two different computations.",
       false},
      {"invisible-cache", "Cache in compiled code that Python checks cannot see", FlagSeverity::Hack,
       "Embedded C++/CUDA keeps state across calls (static or namespace-scope pointers, buffers or flags) and "
       "skips the work when an input's address matches a stored one or once a flag is set, or Python keys "
       "compiled graphs on input addresses: the result of an earlier call comes back from memory no Python-level "
       "check inspects. A static workspace rewritten every call, or a library handle, is fine."},
      {"impossible-time", "Faster than the hardware allows", FlagSeverity::Hack,
       "The measured time is below the bytes the task must move divided by the GPU's peak memory bandwidth. "
       "Only a measurement shows it (the runner's probes); no static rule raises it.",
       false},
  };
  return kFamilies;
}

const FlagFamily* findFlagFamily(std::string_view id) {
  const auto& all = flagFamilies();
  const auto it = std::find_if(all.begin(), all.end(), [&](const FlagFamily& f) { return f.id == id; });
  return it == all.end() ? nullptr : &*it;
}

}  // namespace ks

#pragma once
// The shim that makes a native .cu kernel callable from the runner without knowing its signature.
//
// A native candidate is a .cu file defining `torch::Tensor entry(torch::Tensor a, torch::Tensor b, ...)`
// (parameters by value or const reference). buildNativeLibrary() compiles it together with a generated
// shim (kscope_shim.cu: #include <torch/types.h>, #include "<the .cu>", then the functions below) into one
// shared library. The runner dlopens it (RTLD_NOW | RTLD_LOCAL, after libtorch is loaded) and calls:
//
//   ABI version 2, every symbol extern "C" with default visibility:
//   int         kscope_shim_abi_version(void);   returns kNativeShimAbiVersion
//   const char* kscope_entry_name(void);          the entry function's name, as given to the build
//   int         kscope_entry_arity(void);         how many tensors kscope_call takes
//   int         kscope_entry_convention(void);    an EntryConvention (version 2; version 1 had only Returns)
//   int         kscope_call(const at::Tensor* inputs, int count, at::Tensor* output,
//                           char* error, size_t error_size);
//       Calls entry(inputs[0], ..., inputs[count - 1]) and assigns its result to *output.
//       Returns 0 on success; 1 when count != arity; 2 when the entry threw (c10::Error, std::exception or
//       anything else). On 1 and 2, a NUL-terminated message (truncated to error_size) is in error.
//       The caller owns inputs and output: constructed at::Tensor objects of the libtorch it runs with.
//
// Conventions:
//   Returns  `torch::Tensor entry(t0, ..., tN-1)`; arity N; *output is what it returned.
//   GemmOut  `void entry(a, b, b_col_major, c)` (CUDA-L2's kernels): arity 3, kscope_call gets a (M×K),
//            b (K×N) and b_col_major; the shim allocates c = at::empty({a.size(0), b.size(1)}, a.options())
//            — inside the call, as torch.matmul allocates its output, so both sides pay for it — calls
//            entry(a, b, b_col_major, c) and sets *output = c.
//
// The shim also defines TORCH_EXTENSION_NAME (kscope_native), so a .cu that ends with
// PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) still compiles; that module is never imported.
#include <string>

namespace ks::nvcc {

inline constexpr int kNativeShimAbiVersion = 2;
inline constexpr char kShimEntryConventionSymbol[] = "kscope_entry_convention";
inline constexpr char kShimAbiVersionSymbol[] = "kscope_shim_abi_version";
inline constexpr char kShimEntryNameSymbol[] = "kscope_entry_name";
inline constexpr char kShimEntryAritySymbol[] = "kscope_entry_arity";
inline constexpr char kShimCallSymbol[] = "kscope_call";
inline constexpr int kShimCallOk = 0;
inline constexpr int kShimCallArityMismatch = 1;
inline constexpr int kShimCallThrew = 2;

enum class EntryConvention { Returns = 0, GemmOut = 1 };

// How many tensors kscope_call takes for an entry of `convention` over `inputs` tensors (GemmOut: 3).
int shimArity(EntryConvention convention, int inputs);

// True for a C++ function name the shim can call: an identifier, optionally namespace-qualified.
bool isValidEntryName(const std::string& entry);

// The shim's source. `kernelFile` is the .cu it includes (a name in the same folder); `entry` must satisfy
// isValidEntryName; `arity` >= 0 (ignored for GemmOut, whose arity is 3).
std::string nativeShimSource(const std::string& kernelFile, const std::string& entry, int arity,
                             EntryConvention convention = EntryConvention::Returns);

}  // namespace ks::nvcc

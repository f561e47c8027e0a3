// One cuBLAS TN GEMM (the call CUDA-L2's cuBLAS-tn baseline makes: cublasGemmEx, float16 in and out, float32
// compute, CUBLAS_GEMM_DEFAULT_TENSOR_OP) bound to Python four ways, so that bench/cublas_binding_ab.py can
// time what each part of the call path costs in CUDA-L2's protocol (docs/method-fidelity.md, "The cuBLAS gap"):
//   tensors_nullstream   torch::Tensor arguments by value, dtype and shape checked, a handle of its own that
//                        never had a stream set (so cuBLAS launches on the legacy default stream): CUDA-L2's form
//   tensors_torchstream  the same, the handle's stream set to torch's current stream once at creation
//   objects_torchstream  Python objects unwrapped to tensors by hand, then as above: KernelScope's form
//   pointers_torchstream the data pointers as integers: no tensor conversion at all
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/extension.h>

#include <cstdint>
#include <stdexcept>

namespace {

cublasHandle_t handle(bool torchStream) {
  static cublasHandle_t plain = nullptr, streamed = nullptr;
  cublasHandle_t& h = torchStream ? streamed : plain;
  if (!h) {
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate");
    cublasSetMathMode(h, CUBLAS_TENSOR_OP_MATH);
    if (torchStream) cublasSetStream(h, at::cuda::getCurrentCUDAStream().stream());
  }
  return h;
}

void gemmTn(cublasHandle_t h, const void* a, const void* bColMajor, void* c, int m, int n, int k) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, bColMajor, CUDA_R_16F, k, a, CUDA_R_16F, k, &beta, c,
               CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
}

void checked(const torch::Tensor& a, const torch::Tensor& bc, const torch::Tensor& c) {
  if (a.scalar_type() != torch::kHalf || bc.scalar_type() != torch::kHalf || c.scalar_type() != torch::kHalf)
    throw std::runtime_error("float16 only");
  if (c.size(0) != a.size(0) || c.size(1) != bc.size(1) || bc.size(0) != a.size(1))
    throw std::runtime_error("shape mismatch");
}

void viaTensors(bool torchStream, torch::Tensor a, torch::Tensor /*b*/, torch::Tensor bc, torch::Tensor c) {
  checked(a, bc, c);
  gemmTn(handle(torchStream), a.data_ptr(), bc.data_ptr(), c.data_ptr(), static_cast<int>(a.size(0)),
         static_cast<int>(bc.size(1)), static_cast<int>(a.size(1)));
}

const at::Tensor& unwrapped(const py::object& o) {
  if (!THPVariable_Check(o.ptr())) throw py::type_error("tensors only");
  return THPVariable_Unpack(o.ptr());
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("tensors_nullstream", [](torch::Tensor a, torch::Tensor b, torch::Tensor bc, torch::Tensor c) {
    viaTensors(false, a, b, bc, c);
  });
  m.def("tensors_torchstream", [](torch::Tensor a, torch::Tensor b, torch::Tensor bc, torch::Tensor c) {
    viaTensors(true, a, b, bc, c);
  });
  m.def("objects_torchstream", [](py::object a, py::object, py::object bc, py::object c) {
    const at::Tensor &ta = unwrapped(a), &tbc = unwrapped(bc), &tc = unwrapped(c);
    gemmTn(handle(true), ta.data_ptr(), tbc.data_ptr(), tc.data_ptr(), static_cast<int>(ta.size(0)),
           static_cast<int>(tbc.size(1)), static_cast<int>(ta.size(1)));
  });
  m.def("pointers_torchstream", [](std::uintptr_t a, std::uintptr_t bc, std::uintptr_t c, int mm, int n, int k) {
    gemmTn(handle(true), reinterpret_cast<const void*>(a), reinterpret_cast<const void*>(bc),
           reinterpret_cast<void*>(c), mm, n, k);
  });
}

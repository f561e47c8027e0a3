constexpr int BM = 99999999999999999999999;
constexpr int BN = 0;
auto BK = Int<-1>{};
constexpr int BM = cute::_##TM;
void cuda_l2_h100_fp32(torch::Tensor a, torch::Tensor b, torch::Tensor b_col_major

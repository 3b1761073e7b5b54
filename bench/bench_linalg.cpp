// Matrix products (issue 46): tessera's product engine against libtorch (bench_linalg_torch.cpp)
// in the same process. Inputs are uniform in [0, 1) (integers in [0, 10)), drawn once.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <string>

#include "linalg_cases.hpp"
#include "tessera/tessera.hpp"

namespace ts = tessera;

#if defined(TESSERA_BENCH_WITH_TORCH)
void register_torch_linalg();  // bench_linalg_torch.cpp
#endif

namespace {

using namespace bench::linalg;

void tessera_case(benchmark::State& state, const std::string& name) {
  ts::Generator gen(1);
  const auto a512 = ts::rand<float>({512, 512}, gen), b512 = ts::rand<float>({512, 512}, gen);
  const auto d512 = a512.cast<double>(), e512 = b512.cast<double>();
  const auto small_a = ts::rand<float>({4096, 8, 8}, gen),
             small_b = ts::rand<float>({4096, 8, 8}, gen);
  const auto tall = ts::rand<float>({256, 1024}, gen), wide = ts::rand<float>({256, 256}, gen);
  const auto ia = ts::randint<std::int32_t>(0, 10, {256, 256}, gen);
  const auto ib = ts::randint<std::int32_t>(0, 10, {256, 256}, gen);
  const auto ea = ts::rand<float>({64, 64, 64}, gen), eb = ts::rand<float>({64, 64, 64}, gen);
  const auto pa = ts::rand<float>({2000, 64}, gen), pb = ts::rand<float>({2000, 64}, gen);
  for (auto _ : state) {
    if (name == "mm_f32_512") benchmark::DoNotOptimize(ts::mm(a512, b512).data_ptr());
    if (name == "mm_f64_512") benchmark::DoNotOptimize(ts::mm(d512, e512).data_ptr());
    if (name == "bmm_f32_4096x8") benchmark::DoNotOptimize(ts::bmm(small_a, small_b).data_ptr());
    if (name == "matmul_f32_tn_1024x256") {
      benchmark::DoNotOptimize(ts::matmul(tall.t(), wide).data_ptr());
    }
    if (name == "mm_i32_256") benchmark::DoNotOptimize(ts::mm(ia, ib).data_ptr());
    if (name == "einsum_bij_bjk_f32") {
      benchmark::DoNotOptimize(ts::einsum("bij,bjk->bik", {ea, eb}).data_ptr());
    }
    if (name == "cdist_f32_2000x64") benchmark::DoNotOptimize(ts::cdist(pa, pb).data_ptr());
    benchmark::ClobberMemory();
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (const auto& name : names()) {
    register_once(name, "tessera", [name](benchmark::State& s) { tessera_case(s, name); });
  }
#if defined(TESSERA_BENCH_WITH_TORCH)
  register_torch_linalg();
#endif
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

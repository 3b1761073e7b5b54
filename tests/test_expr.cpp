#include <gtest/gtest.h>

#include "tessera/tessera.hpp"

namespace ts = tessera;

TEST(Expr, FusedArithmeticMatchesLoop) {
  auto a = ts::tensor<float>({{1, 3, 5}, {2, 4, 6}});
  auto b = ts::tensor<int64_t>({1, 2, 3});
  ts::Tensor<float> e = a + a * 2.0f - b.cast<float>();
  EXPECT_EQ(e.to_vector(), (std::vector<float>{2, 7, 12, 5, 10, 15}));
  ts::Tensor<bool> m = (a > 4.0f) & !(a == 5.0f);
  EXPECT_EQ(m.to_vector(), (std::vector<bool>{false, false, false, false, false, true}));
  auto w = ts::eval(ts::where(m, a, 0.0f));
  EXPECT_EQ(w.to_vector(), (std::vector<float>{0, 0, 0, 0, 0, 6}));
  EXPECT_EQ(ts::sum(a * a), 91.0f);
  EXPECT_EQ(ts::max(a), 6.0f);
  EXPECT_TRUE(ts::any(a > 5.0f));
  EXPECT_FALSE(ts::all(m));
  a = a + 1.0f;
  EXPECT_EQ(a.to_vector(), (std::vector<float>{2, 4, 6, 3, 5, 7}));
}

#include <gtest/gtest.h>

#include "tessera/tessera.hpp"

namespace ts = tessera;

TEST(Tensor, NestedListsGiveShapeAndValues) {
  auto a = ts::tensor<float>({{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}});
  EXPECT_EQ(a.shape(), (ts::Shape{2, 5}));
  EXPECT_EQ(a.dim(), 2);
  EXPECT_EQ(a.numel(), 10);
  EXPECT_EQ(a.size(-1), 5);
  EXPECT_EQ(a.at({1, 2}), 6.0f);
  auto e = ts::tensor<float>({});
  EXPECT_EQ(e.shape(), (ts::Shape{0}));
  EXPECT_THROW(ts::tensor<int>({{1, 2}, {3}}), ts::ShapeError);
}

TEST(Tensor, ViewsShareStorage) {
  auto a = ts::Tensor<int64_t>::arange(0, 12).reshape({3, 4});
  auto t = a.transpose(0, 1);
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(t.at({3, 2}), 11);
  auto s = a.slice(1, 0, 4, 2);
  EXPECT_EQ(s.to_vector(), (std::vector<int64_t>{0, 2, 4, 6, 8, 10}));
  auto r = a.select(0, 1);
  EXPECT_EQ(r.to_vector(), (std::vector<int64_t>{4, 5, 6, 7}));
  EXPECT_EQ(t.contiguous().to_vector(),
            (std::vector<int64_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
}

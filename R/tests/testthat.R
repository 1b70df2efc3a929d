library(testthat)
library(pybcv)

test_check("pybcv")

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# OpenCV's OpenCL path (Debian's python3-opencv) on the platform the loader
# lists first: cv2.resize of a 2048 x 2048 RGBA8 image to 1500 x 1300 with
# INTER_LINEAR, which OpenCV runs as its resizeSampler kernel (an image2d_t
# made from the UMat's buffer, read through a linear sampler) on a device
# with images and cl_khr_image2d_from_buffer, else as a buffer kernel; and a
# 5x5 GaussianBlur. Prints "name<TAB>Mpixel/s<TAB>largest difference from
# OpenCV's own CPU code" per operation, the median of 7 after a warm-up.
# Run by bench/clients with OPENCV_OPENCL_DEVICE=:CPU: (OpenCV takes GPUs
# only by default).
import statistics
import sys
import time

import cv2
import numpy as np

cv2.ocl.setUseOpenCL(True)
if not cv2.ocl.haveOpenCL() or not cv2.ocl.useOpenCL():
    sys.exit("opencv_resize: OpenCV finds no OpenCL device")
device = cv2.ocl.Device_getDefault()
print(f"device\t{device.name()}\timages {device.imageSupport()}", file=sys.stderr)
img = np.random.default_rng(1).integers(0, 256, (2048, 2048, 4), dtype=np.uint8)
src = cv2.UMat(img)
ops = [
    ("resize INTER_LINEAR 2048x2048 -> 1500x1300 RGBA8", 1500 * 1300,
     lambda x: cv2.resize(x, (1500, 1300), interpolation=cv2.INTER_LINEAR)),
    ("GaussianBlur 5x5 2048x2048 RGBA8", 2048 * 2048, lambda x: cv2.GaussianBlur(x, (5, 5), 1.5)),
]
for name, pixels, op in ops:
    reference = op(img)
    got = op(src).get()  # warm-up: builds the kernel
    times = []
    for _ in range(7):
        t0 = time.perf_counter()
        op(src).get()
        times.append(time.perf_counter() - t0)
    diff = int(np.abs(got.astype(int) - reference.astype(int)).max())
    print(f"{name}\t{pixels / statistics.median(times) / 1e6:.1f}\t{diff}")

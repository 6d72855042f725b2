/* SPDX-License-Identifier: MIT */
/*
 * The dispatch table every handle points to: the ICD loader calls each entry
 * through it. Entries are defined under their OpenCL names (hidden by the
 * version script), so cl.h checks every signature.
 */
#include "../runtime/object.h"

#include <CL/cl_egl.h>
#include <CL/cl_ext.h>
#include <CL/cl_gl.h>

const cl_icd_dispatch lanes_dispatch = {
    /* OpenCL 1.0 */
    .clGetPlatformIDs = clGetPlatformIDs,
    .clGetPlatformInfo = clGetPlatformInfo,
    .clGetDeviceIDs = clGetDeviceIDs,
    .clGetDeviceInfo = clGetDeviceInfo,
    .clCreateContext = clCreateContext,
    .clCreateContextFromType = clCreateContextFromType,
    .clRetainContext = clRetainContext,
    .clReleaseContext = clReleaseContext,
    .clGetContextInfo = clGetContextInfo,
    .clCreateCommandQueue = clCreateCommandQueue,
    .clRetainCommandQueue = clRetainCommandQueue,
    .clReleaseCommandQueue = clReleaseCommandQueue,
    .clGetCommandQueueInfo = clGetCommandQueueInfo,
    .clSetCommandQueueProperty = clSetCommandQueueProperty,
    .clCreateBuffer = clCreateBuffer,
    .clCreateImage2D = clCreateImage2D,
    .clCreateImage3D = clCreateImage3D,
    .clRetainMemObject = clRetainMemObject,
    .clReleaseMemObject = clReleaseMemObject,
    .clGetSupportedImageFormats = clGetSupportedImageFormats,
    .clGetMemObjectInfo = clGetMemObjectInfo,
    .clGetImageInfo = clGetImageInfo,
    .clCreateSampler = clCreateSampler,
    .clRetainSampler = clRetainSampler,
    .clReleaseSampler = clReleaseSampler,
    .clGetSamplerInfo = clGetSamplerInfo,
    .clCreateProgramWithSource = clCreateProgramWithSource,
    .clCreateProgramWithBinary = clCreateProgramWithBinary,
    .clRetainProgram = clRetainProgram,
    .clReleaseProgram = clReleaseProgram,
    .clBuildProgram = clBuildProgram,
    .clUnloadCompiler = clUnloadCompiler,
    .clGetProgramInfo = clGetProgramInfo,
    .clGetProgramBuildInfo = clGetProgramBuildInfo,
    .clCreateKernel = clCreateKernel,
    .clCreateKernelsInProgram = clCreateKernelsInProgram,
    .clRetainKernel = clRetainKernel,
    .clReleaseKernel = clReleaseKernel,
    .clSetKernelArg = clSetKernelArg,
    .clGetKernelInfo = clGetKernelInfo,
    .clGetKernelWorkGroupInfo = clGetKernelWorkGroupInfo,
    .clWaitForEvents = clWaitForEvents,
    .clGetEventInfo = clGetEventInfo,
    .clRetainEvent = clRetainEvent,
    .clReleaseEvent = clReleaseEvent,
    .clGetEventProfilingInfo = clGetEventProfilingInfo,
    .clFlush = clFlush,
    .clFinish = clFinish,
    .clEnqueueReadBuffer = clEnqueueReadBuffer,
    .clEnqueueWriteBuffer = clEnqueueWriteBuffer,
    .clEnqueueCopyBuffer = clEnqueueCopyBuffer,
    .clEnqueueReadImage = clEnqueueReadImage,
    .clEnqueueWriteImage = clEnqueueWriteImage,
    .clEnqueueCopyImage = clEnqueueCopyImage,
    .clEnqueueCopyImageToBuffer = clEnqueueCopyImageToBuffer,
    .clEnqueueCopyBufferToImage = clEnqueueCopyBufferToImage,
    .clEnqueueMapBuffer = clEnqueueMapBuffer,
    .clEnqueueMapImage = clEnqueueMapImage,
    .clEnqueueUnmapMemObject = clEnqueueUnmapMemObject,
    .clEnqueueNDRangeKernel = clEnqueueNDRangeKernel,
    .clEnqueueTask = clEnqueueTask,
    .clEnqueueNativeKernel = clEnqueueNativeKernel,
    .clEnqueueMarker = clEnqueueMarker,
    .clEnqueueWaitForEvents = clEnqueueWaitForEvents,
    .clEnqueueBarrier = clEnqueueBarrier,
    .clGetExtensionFunctionAddress = clGetExtensionFunctionAddress,
    .clCreateFromGLBuffer = clCreateFromGLBuffer,
    .clCreateFromGLTexture2D = clCreateFromGLTexture2D,
    .clCreateFromGLTexture3D = clCreateFromGLTexture3D,
    .clCreateFromGLRenderbuffer = clCreateFromGLRenderbuffer,
    .clGetGLObjectInfo = clGetGLObjectInfo,
    .clGetGLTextureInfo = clGetGLTextureInfo,
    .clEnqueueAcquireGLObjects = clEnqueueAcquireGLObjects,
    .clEnqueueReleaseGLObjects = clEnqueueReleaseGLObjects,
    .clGetGLContextInfoKHR = clGetGLContextInfoKHR,

    /* cl_khr_d3d10_sharing */
    /* .clGetDeviceIDsFromD3D10KHR: Windows only */
    /* .clCreateFromD3D10BufferKHR: Windows only */
    /* .clCreateFromD3D10Texture2DKHR: Windows only */
    /* .clCreateFromD3D10Texture3DKHR: Windows only */
    /* .clEnqueueAcquireD3D10ObjectsKHR: Windows only */
    /* .clEnqueueReleaseD3D10ObjectsKHR: Windows only */

    /* OpenCL 1.1 */
    .clSetEventCallback = clSetEventCallback,
    .clCreateSubBuffer = clCreateSubBuffer,
    .clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback,
    .clCreateUserEvent = clCreateUserEvent,
    .clSetUserEventStatus = clSetUserEventStatus,
    .clEnqueueReadBufferRect = clEnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = clEnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = clEnqueueCopyBufferRect,

    /* cl_ext_device_fission */
    .clCreateSubDevicesEXT = clCreateSubDevicesEXT,
    .clRetainDeviceEXT = clRetainDeviceEXT,
    .clReleaseDeviceEXT = clReleaseDeviceEXT,

    /* cl_khr_gl_event */
    .clCreateEventFromGLsyncKHR = clCreateEventFromGLsyncKHR,

    /* OpenCL 1.2 */
    .clCreateSubDevices = clCreateSubDevices,
    .clRetainDevice = clRetainDevice,
    .clReleaseDevice = clReleaseDevice,
    .clCreateImage = clCreateImage,
    .clCreateProgramWithBuiltInKernels = clCreateProgramWithBuiltInKernels,
    .clCompileProgram = clCompileProgram,
    .clLinkProgram = clLinkProgram,
    .clUnloadPlatformCompiler = clUnloadPlatformCompiler,
    .clGetKernelArgInfo = clGetKernelArgInfo,
    .clEnqueueFillBuffer = clEnqueueFillBuffer,
    .clEnqueueFillImage = clEnqueueFillImage,
    .clEnqueueMigrateMemObjects = clEnqueueMigrateMemObjects,
    .clEnqueueMarkerWithWaitList = clEnqueueMarkerWithWaitList,
    .clEnqueueBarrierWithWaitList = clEnqueueBarrierWithWaitList,
    .clGetExtensionFunctionAddressForPlatform = clGetExtensionFunctionAddressForPlatform,
    .clCreateFromGLTexture = clCreateFromGLTexture,

    /* cl_khr_d3d11_sharing */
    /* .clGetDeviceIDsFromD3D11KHR: Windows only */
    /* .clCreateFromD3D11BufferKHR: Windows only */
    /* .clCreateFromD3D11Texture2DKHR: Windows only */
    /* .clCreateFromD3D11Texture3DKHR: Windows only */
    /* .clCreateFromDX9MediaSurfaceKHR: Windows only */
    /* .clEnqueueAcquireD3D11ObjectsKHR: Windows only */
    /* .clEnqueueReleaseD3D11ObjectsKHR: Windows only */

    /* cl_khr_dx9_media_sharing */
    /* .clGetDeviceIDsFromDX9MediaAdapterKHR: Windows only */
    /* .clEnqueueAcquireDX9MediaSurfacesKHR: Windows only */
    /* .clEnqueueReleaseDX9MediaSurfacesKHR: Windows only */

    /* cl_khr_egl_image */
    .clCreateFromEGLImageKHR = clCreateFromEGLImageKHR,
    .clEnqueueAcquireEGLObjectsKHR = clEnqueueAcquireEGLObjectsKHR,
    .clEnqueueReleaseEGLObjectsKHR = clEnqueueReleaseEGLObjectsKHR,

    /* cl_khr_egl_event */
    .clCreateEventFromEGLSyncKHR = clCreateEventFromEGLSyncKHR,

    /* OpenCL 2.0 */
    .clCreateCommandQueueWithProperties = clCreateCommandQueueWithProperties,
    .clCreatePipe = clCreatePipe,
    .clGetPipeInfo = clGetPipeInfo,
    .clSVMAlloc = clSVMAlloc,
    .clSVMFree = clSVMFree,
    .clEnqueueSVMFree = clEnqueueSVMFree,
    .clEnqueueSVMMemcpy = clEnqueueSVMMemcpy,
    .clEnqueueSVMMemFill = clEnqueueSVMMemFill,
    .clEnqueueSVMMap = clEnqueueSVMMap,
    .clEnqueueSVMUnmap = clEnqueueSVMUnmap,
    .clCreateSamplerWithProperties = clCreateSamplerWithProperties,
    .clSetKernelArgSVMPointer = clSetKernelArgSVMPointer,
    .clSetKernelExecInfo = clSetKernelExecInfo,

    /* cl_khr_sub_groups */
    .clGetKernelSubGroupInfoKHR = clGetKernelSubGroupInfoKHR,

    /* OpenCL 2.1 */
    .clCloneKernel = clCloneKernel,
    .clCreateProgramWithIL = clCreateProgramWithIL,
    .clEnqueueSVMMigrateMem = clEnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = clGetDeviceAndHostTimer,
    .clGetHostTimer = clGetHostTimer,
    .clGetKernelSubGroupInfo = clGetKernelSubGroupInfo,
    .clSetDefaultDeviceCommandQueue = clSetDefaultDeviceCommandQueue,

    /* OpenCL 2.2 */
    .clSetProgramReleaseCallback = clSetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = clSetProgramSpecializationConstant,

    /* OpenCL 3.0 */
    .clCreateBufferWithProperties = clCreateBufferWithProperties,
    .clCreateImageWithProperties = clCreateImageWithProperties,
    .clSetContextDestructorCallback = clSetContextDestructorCallback,
};

/* SPDX-License-Identifier: MIT */
/*
 * A program's build, compile and link jobs, run at once or on a worker
 * when the application gives a callback: the compiler's module replaces
 * the program's (its launchers and their background compiles go first),
 * the log and status are recorded, the callback told. The API entries
 * (runtime/api_program.c) check arguments and call in here.
 */
#include "build.h"

#include "../compiler/crash.h"
#include "../compiler/frontend/frontend.h"
#include "../compiler/options.h"
#include "../compiler/program.h"
#include "../compiler/frontend/spirv.h"
#include "check.h"
#include "context.h"
#include "launchers.h"
#include "platform.h"
#include "program.h"
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

/* Appends `line` (malloc'd, taken) to a malloc'd log. */
static void append_line(char **log, char *line)
{
    size_t old = *log ? strlen(*log) : 0;
    char *grown = line ? realloc(*log, old + strlen(line) + 1) : NULL;
    if (grown) {
        strcpy(grown + old, line);
        *log = grown;
    }
    free(line);
}

/* What distinguishes clBuildProgram from clCompileProgram. */
struct build_kind {
    enum lanes_options_kind options;
    cl_int bad_options, failure;
    cl_program_binary_type result;
};

static const struct build_kind build_kind = {LANES_OPTIONS_BUILD, CL_INVALID_BUILD_OPTIONS,
                                             CL_BUILD_PROGRAM_FAILURE,
                                             CL_PROGRAM_BINARY_TYPE_EXECUTABLE};
static const struct build_kind compile_kind = {LANES_OPTIONS_COMPILE, CL_INVALID_COMPILER_OPTIONS,
                                               CL_COMPILE_PROGRAM_FAILURE,
                                               CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT};

static struct lanes_language language_of(cl_device_id dev)
{
    return (struct lanes_language){dev->extensions.items, dev->extensions.count,
                                   dev->opencl_c_features.items, dev->opencl_c_features.count,
                                   LANES_OPENCL_VERSION};
}

/* One build, compile or link of a program from source or binary, run now or on a worker. */
struct build_job {
    struct lanes_task task; /* first: the pool hands back this pointer */
    cl_program program;     /* retained while the job is pending */
    const struct build_kind *kind;
    struct lanes_options opts;
    struct lanes_frontend_file *headers; /* copies (an asynchronous job outlives the call) */
    size_t num_headers;
    struct lanes_program_module *binary; /* the module of a program made from a binary */
    struct lanes_spirv_spec *specs;      /* a copy of the IL program's specialization constants */
    size_t num_specs;
    cl_program_binary_type binary_type;
    void(CL_CALLBACK *pfn_notify)(cl_program, void *);
    void *user_data;
};

/* Compiles (or links a binary), records the result and log, then notifies; no lock held at the end.
 */
static cl_int run_build(struct build_job *job)
{
    cl_program program = job->program;
    cl_device_id dev = program->context->devices[0];
    char *log = NULL;
    struct lanes_program_module *module = NULL;
    cl_int err = CL_SUCCESS;
    if (program->source) {
        struct lanes_language lang = language_of(dev);
        module = lanes_program_compile(
            program->source, program->source_size, job->headers, job->num_headers, &job->opts,
            &lang, job->kind->result == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, &log);
        err = module ? CL_SUCCESS : job->kind->failure;
    } else if (program->il) {
        struct lanes_language lang = language_of(dev);
        module = lanes_program_compile_il(
            program->il, program->il_size, job->specs, job->num_specs, &job->opts, &lang,
            job->kind->result == CL_PROGRAM_BINARY_TYPE_EXECUTABLE, &log);
        err = module ? CL_SUCCESS : job->kind->failure;
    } else if (job->binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
        /* A compiled object or library from a binary becomes an executable of its own. */
        const struct lanes_program_module *in = job->binary;
        module = lanes_program_link(&in, 1, true, &job->opts, &log);
        err = module ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
    }
    /* Every executable starts with fresh variables, initialized once here. */
    struct lanes_globals *globals = NULL;
    char *error = NULL;
    bool executable = job->kind->result == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    if (err == CL_SUCCESS && executable &&
        lanes_globals_create(module ? module : job->binary, &globals, &error) != 0) {
        append_line(&log, error);
        lanes_program_module_free(module);
        module = NULL;
        err = CL_BUILD_PROGRAM_FAILURE;
    }

    if (module) /* the background compiler reads the module being replaced */
        lanes_launchers_forget_background(program);
    pthread_mutex_lock(&program->lock);
    lanes_string_replace(&program->log, log);
    if (module) {
        lanes_program_free_launchers(atomic_load(&program->launchers));
        atomic_store(&program->launchers, NULL);
        lanes_program_module_free(program->module);
        program->module = module;
    }
    if (err == CL_SUCCESS) {
        lanes_globals_unkeep(program->globals);
        program->globals = globals;
    }
    if (program->source) {
        program->kernel_arg_info = job->opts.kernel_arg_info;
        program->uniform_work_groups =
            job->opts.uniform_work_group_size || job->opts.cl_std < CL_MAKE_VERSION(2, 0, 0);
    } else if (program->il) {
        /* SPIR-V carries no argument names (CL_KERNEL_ARG_INFO_NOT_AVAILABLE), nor a -cl-std. */
        program->kernel_arg_info = false;
        program->uniform_work_groups = job->opts.uniform_work_group_size;
    }
    program->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    if (err == CL_SUCCESS)
        program->binary_type = job->kind->result;
    else if (program->source || program->il)
        program->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    pthread_mutex_unlock(&program->lock);
    free(log);
    if (job->pfn_notify)
        job->pfn_notify(program, job->user_data);
    return err;
}

static void free_job(struct build_job *job)
{
    lanes_options_free(&job->opts);
    for (size_t i = 0; i < job->num_headers; i++) {
        free((char *)job->headers[i].name);
        free((char *)job->headers[i].text);
    }
    free(job->headers);
    free(job->specs);
    free(job);
}

/* The pool's side of an asynchronous build. */
static void run_build_task(struct lanes_task *task)
{
    struct build_job *job = (struct build_job *)task;
    cl_program program = job->program;
    run_build(job);
    free_job(job);
    lanes_program_release(program);
}

/* A pfn_notify to run on a worker, as an asynchronous build's or link's runs. */
struct notify_task {
    struct lanes_task task; /* first: the pool hands back this pointer */
    cl_program program;     /* retained until the callback returned */
    void(CL_CALLBACK *pfn_notify)(cl_program, void *);
    void *user_data;
};

static void run_notify_task(struct lanes_task *task)
{
    struct notify_task *n = (struct notify_task *)task;
    n->pfn_notify(n->program, n->user_data);
    lanes_program_release(n->program);
    free(n);
}

/*
 * The callback of a build or link with a pfn_notify that ran on the
 * caller's thread (the process's first compile: compiler/crash.h): on a
 * worker, never on a thread that may hold the application's locks; here
 * only when out of memory.
 */
static void notify_on_worker(cl_program program, void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                             void *user_data)
{
    struct notify_task *n = malloc(sizeof *n);
    if (!n) {
        pfn_notify(program, user_data);
        return;
    }
    *n = (struct notify_task){.program = program, .pfn_notify = pfn_notify, .user_data = user_data};
    lanes_program_retain(program);
    n->task.run = run_notify_task;
    lanes_exec_submit_to_workers(&n->task);
}

/* Copies the in-memory headers into the job; false when out of memory. */
static bool copy_headers(struct build_job *job, const struct lanes_frontend_file *headers, size_t n)
{
    if (!n)
        return true;
    if (!(job->headers = calloc(n, sizeof *job->headers)))
        return false;
    job->num_headers = n;
    for (size_t i = 0; i < n; i++) {
        char *name = strdup(headers[i].name), *text = malloc(headers[i].size + 1);
        job->headers[i] = (struct lanes_frontend_file){name, text, headers[i].size};
        if (!name || !text)
            return false;
        memcpy(text, headers[i].text, headers[i].size);
        text[headers[i].size] = '\0';
    }
    return true;
}

/*
 * clBuildProgram and clCompileProgram after their argument checks: the
 * program's state goes to CL_BUILD_IN_PROGRESS and the options are checked
 * at once; with a pfn_notify the compile then runs on a worker and the call
 * returns (the callback tells when it is done), else it runs here (so does
 * the process's first compile: compiler/crash.h).
 */
cl_int lanes_program_start_build(cl_program program, bool compile_only, const char *options,
                                 const struct lanes_frontend_file *headers, size_t num_headers,
                                 void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    const struct build_kind *kind = compile_only ? &compile_kind : &build_kind;
    cl_device_id dev = program->context->devices[0];
    struct build_job *job = calloc(1, sizeof *job);
    if (!job || !copy_headers(job, headers, num_headers)) {
        if (job)
            free_job(job);
        LANES_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the build");
    }
    pthread_mutex_lock(&program->lock);
    if (program->status == CL_BUILD_IN_PROGRESS) {
        pthread_mutex_unlock(&program->lock);
        free_job(job);
        LANES_FAIL(CL_INVALID_OPERATION, "a build of the program is in progress");
    }
    if (!program->source && !program->il && !program->module) {
        /* Made by a clLinkProgram that failed: nothing to build from (api_fuzz found the crash). */
        pthread_mutex_unlock(&program->lock);
        free_job(job);
        LANES_FAIL(CL_INVALID_OPERATION, "the program has neither source nor a binary");
    }
    program->status = CL_BUILD_IN_PROGRESS;
    lanes_string_replace(&program->options, options);
    *job = (struct build_job){.program = program,
                              .kind = kind,
                              .headers = job->headers,
                              .num_headers = job->num_headers,
                              .binary = program->source || program->il ? NULL : program->module,
                              .binary_type = program->binary_type,
                              .pfn_notify = pfn_notify,
                              .user_data = user_data};
    if (program->num_specs) {
        job->specs = malloc(program->num_specs * sizeof *job->specs);
        if (job->specs) {
            memcpy(job->specs, program->specs, program->num_specs * sizeof *job->specs);
            job->num_specs = program->num_specs;
        }
    }
    bool out_of_memory = program->num_specs && !job->specs;
    if (out_of_memory)
        program->status = CL_BUILD_ERROR;
    pthread_mutex_unlock(&program->lock);
    if (out_of_memory) {
        free_job(job);
        LANES_FAIL(CL_OUT_OF_HOST_MEMORY, "copying the specialization constants");
    }

    if (lanes_options_parse(options, kind->options, dev->opencl_c_versions.items,
                            dev->opencl_c_versions.count, &job->opts) != 0) {
        pthread_mutex_lock(&program->lock);
        lanes_string_replace(&program->log, job->opts.error ? job->opts.error : "invalid options");
        program->status = CL_BUILD_ERROR;
        pthread_mutex_unlock(&program->lock);
        free_job(job);
        if (pfn_notify)
            pfn_notify(program, user_data);
        LANES_FAIL(kind->bad_options, "see the build log");
    }
    if (pfn_notify && lanes_compiled_once()) { /* the first runs here: compiler/crash.h */
        lanes_program_retain(program);
        job->task.run = run_build_task;
        lanes_exec_submit_to_workers(&job->task);
        return CL_SUCCESS;
    }
    job->pfn_notify = NULL;
    cl_int err = run_build(job);
    free_job(job);
    if (pfn_notify) { /* as asynchronous: the callback tells how it went */
        notify_on_worker(program, pfn_notify, user_data);
        return CL_SUCCESS;
    }
    LANES_CHECK(err == CL_SUCCESS, err, "see the build log");
    return CL_SUCCESS;
}

/* One clLinkProgram, run now or (with a pfn_notify) on a worker. */
struct link_job {
    struct lanes_task task; /* first: the pool hands back this pointer */
    cl_program program;     /* the result; retained while the job is pending */
    bool create_library;
    struct lanes_options math; /* the link's math options only (nothing to free) */
    void(CL_CALLBACK *pfn_notify)(cl_program, void *);
    void *user_data;
    cl_uint num_inputs;
    const struct lanes_program_module *inputs[]; /* copies, freed with the job */
};

static void free_link_job(struct link_job *job)
{
    for (cl_uint i = 0; i < job->num_inputs; i++)
        if (job->inputs[i])
            lanes_program_module_free((struct lanes_program_module *)job->inputs[i]);
    free(job);
}

/* Links the inputs into the job's program, records the result and log, then notifies. */
static bool run_link(struct link_job *job)
{
    cl_program p = job->program;
    char *log = NULL;
    struct lanes_program_module *m =
        lanes_program_link(job->inputs, job->num_inputs, !job->create_library, &job->math, &log);
    struct lanes_globals *globals = NULL;
    char *error = NULL;
    if (m && !job->create_library && lanes_globals_create(m, &globals, &error) != 0) {
        append_line(&log, error);
        lanes_program_module_free(m);
        m = NULL;
    }
    pthread_mutex_lock(&p->lock);
    lanes_string_replace(&p->log, log);
    p->module = m;
    p->globals = globals;
    p->status = m ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    p->binary_type = !m                    ? CL_PROGRAM_BINARY_TYPE_NONE
                     : job->create_library ? CL_PROGRAM_BINARY_TYPE_LIBRARY
                                           : CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    pthread_mutex_unlock(&p->lock);
    free(log);
    if (job->pfn_notify)
        job->pfn_notify(p, job->user_data);
    return m != NULL;
}

/* The pool's side of an asynchronous link. */
static void run_link_task(struct lanes_task *task)
{
    struct link_job *job = (struct link_job *)task;
    cl_program p = job->program;
    run_link(job);
    free_link_job(job);
    lanes_program_release(p);
}

/*
 * clLinkProgram after its context and device checks: copies the inputs,
 * parses the options, makes the program and links, at once or (with a
 * pfn_notify) on a worker.
 */
cl_program lanes_program_start_link(cl_context context, const char *options,
                                    cl_uint num_input_programs, const cl_program *input_programs,
                                    void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                    void *user_data, cl_int *errcode_ret)
{
    struct link_job *job = calloc(1, sizeof *job + num_input_programs * sizeof *job->inputs);
    LANES_CHECK_OBJ(job, CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the link");
    job->num_inputs = num_input_programs;
    for (cl_uint i = 0; i < num_input_programs; i++) {
        cl_program in = input_programs[i];
        if (!lanes_program_valid(in) || in->context != context) {
            free_link_job(job);
            LANES_FAIL_OBJ(CL_INVALID_PROGRAM, errcode_ret,
                           "an input is not a program of the context");
        }
        pthread_mutex_lock(&in->lock);
        const struct lanes_program_module *m = in->module;
        bool linkable = m && (in->binary_type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
                              in->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY);
        /*
         * The link reads copies: an input may be compiled or built again
         * meanwhile, from another thread or in the background (a build
         * freed the module a synchronous link was reading: the API
         * fuzzer's find, under ASan).
         */
        if (linkable)
            m = lanes_program_module_from_bitcode(m->bitcode, m->bitcode_size);
        job->inputs[i] =
            linkable ? m : NULL; /* never the input's own module: the job frees copies */
        pthread_mutex_unlock(&in->lock);
        if (!linkable) {
            free_link_job(job);
            LANES_FAIL_OBJ(CL_INVALID_OPERATION, errcode_ret,
                           "an input has no compiled object or library");
        }
        if (!m) {
            free_link_job(job);
            LANES_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY, errcode_ret, "copying an input");
        }
    }
    cl_device_id dev = context->devices[0];
    struct lanes_options opts;
    if (lanes_options_parse(options, LANES_OPTIONS_LINK, dev->opencl_c_versions.items,
                            dev->opencl_c_versions.count, &opts) != 0 ||
        (opts.enable_link_options && !opts.create_library)) {
        lanes_options_free(&opts);
        free_link_job(job);
        LANES_FAIL_OBJ(CL_INVALID_LINKER_OPTIONS, errcode_ret,
                       "unknown option, or -enable-link-options without -create-library");
    }
    job->create_library = opts.create_library;
    job->math.unsafe_math = opts.unsafe_math;
    job->math.finite_math_only = opts.finite_math_only;
    job->math.no_signed_zeros = opts.no_signed_zeros;
    job->math.denorms_are_zero = opts.denorms_are_zero;
    job->math.enable_link_options = opts.enable_link_options;
    lanes_options_free(&opts);
    cl_program p = job->program = lanes_program_new(context);
    if (!p) {
        free_link_job(job);
        LANES_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the program");
    }
    lanes_string_replace(&p->options, options);
    p->status = CL_BUILD_IN_PROGRESS;
    p->uniform_work_groups = input_programs[0]->uniform_work_groups;
    p->kernel_arg_info = input_programs[0]->kernel_arg_info;
    job->pfn_notify = pfn_notify;
    job->user_data = user_data;
    if (pfn_notify && lanes_compiled_once()) {
        /* The program is returned at once; the callback tells when the link is done. */
        lanes_program_retain(p);
        job->task.run = run_link_task;
        lanes_exec_submit_to_workers(&job->task);
        lanes_set_error(errcode_ret, CL_SUCCESS);
        return p;
    }
    job->pfn_notify = NULL;
    bool ok = run_link(job);
    free_link_job(job);
    if (pfn_notify) { /* as asynchronous: the callback tells how it went */
        notify_on_worker(p, pfn_notify, user_data);
        ok = true;
    }
    /* A failed link still returns its program, so that its log can be read. */
    lanes_set_error(errcode_ret, ok ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE);
    return p;
}

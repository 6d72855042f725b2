/* SPDX-License-Identifier: MIT */
/*
 * The vectorizer's CFG analyses (compiler/vectorize/vz_cfg.h) on small IR
 * functions: dominators and post-dominators, the loop forest, and the linear
 * order (every edge but back edges forward, loops contiguous header first),
 * which irreducible CFGs and unreachable blocks refuse. Blocks are laid out
 * in the IR so that keeping the function's order would be wrong.
 */
#include "../../compiler/vectorize/vz_cfg.h"

#include <setjmp.h> /* cmocka needs these first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <string.h>

/* One parsed function @f and its analyses. */
struct ir {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMValueRef fn;
    struct vz_cfg *cfg;
};

/* Parses `text` (a module defining @f) and builds the analyses of @f. */
static struct ir parse(const char *text)
{
    struct ir ir = {.ctx = LLVMContextCreate()};
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "test.ll");
    char *error = NULL;
    if (LLVMParseIRInContext(ir.ctx, buf, &ir.mod, &error))
        fail_msg("bad IR: %s", error);
    ir.fn = LLVMGetNamedFunction(ir.mod, "f");
    assert_non_null(ir.fn);
    ir.cfg = vz_cfg_build(ir.fn);
    assert_non_null(ir.cfg);
    return ir;
}

static void done(struct ir *ir)
{
    vz_cfg_free(ir->cfg);
    LLVMDisposeModule(ir->mod);
    LLVMContextDispose(ir->ctx);
}

/* The block of @f named `name`. */
static LLVMBasicBlockRef bb(struct ir *ir, const char *name)
{
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(ir->fn); b; b = LLVMGetNextBasicBlock(b))
        if (strcmp(LLVMGetBasicBlockName(b), name) == 0)
            return b;
    fail_msg("no block %s", name);
    return NULL;
}

/* The linear order as block names separated by spaces ("" when refused). */
static const char *order(struct ir *ir)
{
    static char names[512];
    LLVMBasicBlockRef blocks[32];
    size_t n = vz_cfg_linear_order(ir->cfg, blocks, 32);
    assert_true(n <= 32);
    names[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(vz_cfg_linear_index(ir->cfg, blocks[i]), i);
        if (i)
            strcat(names, " ");
        strcat(names, LLVMGetBasicBlockName(blocks[i]));
    }
    return names;
}

#define B(name) bb(&ir, name)

/* if/else: dominators meet at the entry, post-dominators at the merge. */
static void diamond(void **state)
{
    (void)state;
    struct ir ir = parse("define void @f(i1 %c) {\n"
                         "entry:\n"
                         "  br i1 %c, label %then, label %else\n"
                         "merge:\n"
                         "  ret void\n"
                         "else:\n"
                         "  br label %merge\n"
                         "then:\n"
                         "  br label %merge\n"
                         "}\n");
    assert_string_equal(order(&ir), "entry else then merge");
    assert_null(vz_cfg_idom(ir.cfg, B("entry")));
    assert_ptr_equal(vz_cfg_idom(ir.cfg, B("then")), B("entry"));
    assert_ptr_equal(vz_cfg_idom(ir.cfg, B("merge")), B("entry"));
    assert_ptr_equal(vz_cfg_ipdom(ir.cfg, B("entry")), B("merge"));
    assert_ptr_equal(vz_cfg_ipdom(ir.cfg, B("then")), B("merge"));
    assert_null(vz_cfg_ipdom(ir.cfg, B("merge")));
    assert_true(vz_cfg_dominates(ir.cfg, B("entry"), B("merge")));
    assert_true(vz_cfg_dominates(ir.cfg, B("then"), B("then")));
    assert_false(vz_cfg_dominates(ir.cfg, B("then"), B("merge")));
    assert_true(vz_cfg_post_dominates(ir.cfg, B("merge"), B("entry")));
    assert_false(vz_cfg_post_dominates(ir.cfg, B("then"), B("entry")));
    assert_false(vz_cfg_post_dominates(ir.cfg, B("entry"), B("merge")));
    assert_null(vz_cfg_loop_of(ir.cfg, B("then")));
    assert_int_equal(vz_cfg_loop_depth(ir.cfg, B("merge")), 0);
    assert_false(vz_cfg_loop_contains(ir.cfg, B("entry"), B("then")));
    assert_null(vz_cfg_loop_last(ir.cfg, B("entry")));
    assert_false(vz_cfg_is_back_edge(ir.cfg, B("then"), B("merge")));

    /* Only `cap` blocks are written; the count is the function's. */
    LLVMBasicBlockRef two[3] = {NULL, NULL, NULL};
    assert_int_equal(vz_cfg_linear_order(ir.cfg, two, 2), 4);
    assert_ptr_equal(two[0], B("entry"));
    assert_ptr_equal(two[1], B("else"));
    assert_null(two[2]);
    done(&ir);
}

/* for (;;) { if (a) continue; if (b) break; body; } with the latch laid out before the body. */
static void loop_break_continue(void **state)
{
    (void)state;
    struct ir ir = parse("define void @f(i32 %n) {\n"
                         "entry:\n"
                         "  br label %header\n"
                         "header:\n"
                         "  %i = phi i32 [ 0, %entry ], [ %inc, %latch ]\n"
                         "  %a = icmp eq i32 %i, 3\n"
                         "  br i1 %a, label %latch, label %check\n"
                         "exit:\n"
                         "  ret void\n"
                         "latch:\n"
                         "  %inc = add i32 %i, 1\n"
                         "  %more = icmp slt i32 %inc, %n\n"
                         "  br i1 %more, label %header, label %exit\n"
                         "check:\n"
                         "  %b = icmp eq i32 %i, 7\n"
                         "  br i1 %b, label %exit, label %body\n"
                         "body:\n"
                         "  br label %latch\n"
                         "}\n");
    assert_string_equal(order(&ir), "entry header check body latch exit");
    assert_ptr_equal(vz_cfg_loop_last(ir.cfg, B("header")), B("latch"));
    assert_ptr_equal(vz_cfg_loop_of(ir.cfg, B("header")), B("header"));
    assert_ptr_equal(vz_cfg_loop_of(ir.cfg, B("body")), B("header"));
    assert_null(vz_cfg_loop_of(ir.cfg, B("exit")));
    assert_null(vz_cfg_parent_loop(ir.cfg, B("header")));
    assert_null(vz_cfg_parent_loop(ir.cfg, B("body")));
    assert_int_equal(vz_cfg_loop_depth(ir.cfg, B("check")), 1);
    assert_int_equal(vz_cfg_loop_depth(ir.cfg, B("entry")), 0);
    assert_true(vz_cfg_loop_contains(ir.cfg, B("header"), B("latch")));
    assert_false(vz_cfg_loop_contains(ir.cfg, B("header"), B("exit")));
    assert_false(vz_cfg_loop_contains(ir.cfg, B("body"), B("body")));
    assert_true(vz_cfg_is_back_edge(ir.cfg, B("latch"), B("header")));
    assert_false(vz_cfg_is_back_edge(ir.cfg, B("body"), B("header"))); /* no such edge */
    assert_false(vz_cfg_is_back_edge(ir.cfg, B("entry"), B("header")));
    assert_false(vz_cfg_is_back_edge(ir.cfg, B("check"), B("exit")));
    assert_ptr_equal(vz_cfg_idom(ir.cfg, B("latch")), B("header"));
    assert_ptr_equal(vz_cfg_idom(ir.cfg, B("exit")), B("header"));
    assert_ptr_equal(vz_cfg_ipdom(ir.cfg, B("header")), B("exit"));
    assert_ptr_equal(vz_cfg_ipdom(ir.cfg, B("check")), B("exit"));
    assert_ptr_equal(vz_cfg_ipdom(ir.cfg, B("body")), B("latch"));
    assert_true(vz_cfg_post_dominates(ir.cfg, B("exit"), B("body")));
    assert_false(vz_cfg_post_dominates(ir.cfg, B("latch"), B("check")));
    done(&ir);
}

/* Two nested loops; `found` leaves both from the inner one and is laid out inside them. */
static void nested_exit_from_inner(void **state)
{
    (void)state;
    struct ir ir = parse("define void @f(i1 %c1, i1 %c2, i1 %c3) {\n"
                         "entry:\n"
                         "  br label %outer\n"
                         "outer:\n"
                         "  br label %inner\n"
                         "inner:\n"
                         "  br i1 %c1, label %found, label %inner_latch\n"
                         "found:\n"
                         "  br label %exit\n"
                         "outer_latch:\n"
                         "  br i1 %c3, label %outer, label %exit\n"
                         "inner_latch:\n"
                         "  br i1 %c2, label %inner, label %outer_latch\n"
                         "exit:\n"
                         "  ret void\n"
                         "}\n");
    assert_string_equal(order(&ir), "entry outer inner inner_latch outer_latch found exit");
    assert_ptr_equal(vz_cfg_loop_of(ir.cfg, B("inner_latch")), B("inner"));
    assert_ptr_equal(vz_cfg_loop_of(ir.cfg, B("outer_latch")), B("outer"));
    assert_null(vz_cfg_loop_of(ir.cfg, B("found")));
    assert_ptr_equal(vz_cfg_parent_loop(ir.cfg, B("inner")), B("outer"));
    assert_null(vz_cfg_parent_loop(ir.cfg, B("outer")));
    assert_int_equal(vz_cfg_loop_depth(ir.cfg, B("inner_latch")), 2);
    assert_int_equal(vz_cfg_loop_depth(ir.cfg, B("outer")), 1);
    assert_int_equal(vz_cfg_loop_depth(ir.cfg, B("found")), 0);
    assert_true(vz_cfg_loop_contains(ir.cfg, B("outer"), B("inner_latch")));
    assert_false(vz_cfg_loop_contains(ir.cfg, B("inner"), B("outer_latch")));
    assert_false(vz_cfg_loop_contains(ir.cfg, B("outer"), B("found")));
    assert_ptr_equal(vz_cfg_loop_last(ir.cfg, B("inner")), B("inner_latch"));
    assert_ptr_equal(vz_cfg_loop_last(ir.cfg, B("outer")), B("outer_latch"));
    assert_true(vz_cfg_is_back_edge(ir.cfg, B("inner_latch"), B("inner")));
    assert_true(vz_cfg_is_back_edge(ir.cfg, B("outer_latch"), B("outer")));
    assert_false(vz_cfg_is_back_edge(ir.cfg, B("outer"), B("inner")));
    assert_false(vz_cfg_is_back_edge(ir.cfg, B("inner_latch"), B("outer_latch")));
    assert_ptr_equal(vz_cfg_idom(ir.cfg, B("found")), B("inner"));
    assert_ptr_equal(vz_cfg_idom(ir.cfg, B("exit")), B("inner"));
    assert_ptr_equal(vz_cfg_ipdom(ir.cfg, B("inner")), B("exit"));
    assert_ptr_equal(vz_cfg_ipdom(ir.cfg, B("inner_latch")), B("exit"));
    assert_true(vz_cfg_dominates(ir.cfg, B("outer"), B("outer_latch")));
    done(&ir);
}

/*
 * while (1) { if (c) { A; break; } B; }: visiting B first, a reverse
 * post-order puts A and the exit between the header and the latch B.
 */
static void latch_not_last_in_rpo(void **state)
{
    (void)state;
    struct ir ir = parse("define void @f(i1 %c) {\n"
                         "entry:\n"
                         "  br label %header\n"
                         "header:\n"
                         "  br i1 %c, label %b, label %a\n"
                         "a:\n"
                         "  br label %exit\n"
                         "exit:\n"
                         "  ret void\n"
                         "b:\n"
                         "  br label %header\n"
                         "}\n");
    assert_string_equal(order(&ir), "entry header b a exit");
    assert_ptr_equal(vz_cfg_loop_last(ir.cfg, B("header")), B("b"));
    assert_null(vz_cfg_loop_of(ir.cfg, B("a")));
    assert_true(vz_cfg_is_back_edge(ir.cfg, B("b"), B("header")));
    assert_ptr_equal(vz_cfg_ipdom(ir.cfg, B("header")), B("a"));
    assert_ptr_equal(vz_cfg_ipdom(ir.cfg, B("b")), B("header"));
    done(&ir);
}

/* Two loops one after the other, laid out second first; one is a single block. */
static void sequential_loops(void **state)
{
    (void)state;
    struct ir ir = parse("define void @f(i1 %c) {\n"
                         "entry:\n"
                         "  br label %h1\n"
                         "h2:\n"
                         "  br i1 %c, label %h2, label %exit\n"
                         "exit:\n"
                         "  ret void\n"
                         "h1:\n"
                         "  br i1 %c, label %b1, label %mid\n"
                         "mid:\n"
                         "  br label %h2\n"
                         "b1:\n"
                         "  br label %h1\n"
                         "}\n");
    assert_string_equal(order(&ir), "entry h1 b1 mid h2 exit");
    assert_ptr_equal(vz_cfg_loop_last(ir.cfg, B("h1")), B("b1"));
    assert_ptr_equal(vz_cfg_loop_last(ir.cfg, B("h2")), B("h2"));
    assert_true(vz_cfg_is_back_edge(ir.cfg, B("h2"), B("h2")));
    assert_false(vz_cfg_is_back_edge(ir.cfg, B("mid"), B("h2")));
    assert_null(vz_cfg_loop_of(ir.cfg, B("mid")));
    assert_false(vz_cfg_loop_contains(ir.cfg, B("h1"), B("h2")));
    assert_null(vz_cfg_parent_loop(ir.cfg, B("h2")));
    assert_ptr_equal(vz_cfg_idom(ir.cfg, B("h2")), B("mid"));
    assert_ptr_equal(vz_cfg_ipdom(ir.cfg, B("b1")), B("h1"));
    done(&ir);
}

/* A loop without exit: nothing post-dominates the blocks before it. */
static void infinite_loop(void **state)
{
    (void)state;
    struct ir ir = parse("define void @f() {\n"
                         "entry:\n"
                         "  br label %spin\n"
                         "spin:\n"
                         "  br label %spin\n"
                         "}\n");
    assert_string_equal(order(&ir), "entry spin");
    assert_null(vz_cfg_ipdom(ir.cfg, B("spin")));
    assert_ptr_equal(vz_cfg_loop_of(ir.cfg, B("spin")), B("spin"));
    assert_ptr_equal(vz_cfg_loop_last(ir.cfg, B("spin")), B("spin"));
    done(&ir);
}

/* A cycle entered at two blocks is no loop: no linear order. */
static void irreducible(void **state)
{
    (void)state;
    struct ir ir = parse("define void @f(i1 %c) {\n"
                         "entry:\n"
                         "  br i1 %c, label %a, label %b\n"
                         "a:\n"
                         "  br i1 %c, label %b, label %exit\n"
                         "b:\n"
                         "  br i1 %c, label %a, label %exit\n"
                         "exit:\n"
                         "  ret void\n"
                         "}\n");
    LLVMBasicBlockRef blocks[4];
    assert_int_equal(vz_cfg_linear_order(ir.cfg, blocks, 4), 0);
    assert_int_equal(vz_cfg_linear_index(ir.cfg, B("entry")), SIZE_MAX);
    assert_null(vz_cfg_loop_of(ir.cfg, B("a")));
    assert_ptr_equal(vz_cfg_idom(ir.cfg, B("b")), B("entry"));
    done(&ir);
}

/* The same inside a reducible loop: the cycle shows among the loop's children. */
static void irreducible_in_loop(void **state)
{
    (void)state;
    struct ir ir = parse("define void @f(i1 %c) {\n"
                         "entry:\n"
                         "  br label %h\n"
                         "h:\n"
                         "  br i1 %c, label %a, label %b\n"
                         "a:\n"
                         "  br i1 %c, label %b, label %latch\n"
                         "b:\n"
                         "  br i1 %c, label %a, label %latch\n"
                         "latch:\n"
                         "  br i1 %c, label %h, label %exit\n"
                         "exit:\n"
                         "  ret void\n"
                         "}\n");
    assert_ptr_equal(vz_cfg_loop_of(ir.cfg, B("a")), B("h"));
    assert_int_equal(vz_cfg_linear_order(ir.cfg, NULL, 0), 0);
    assert_null(vz_cfg_loop_last(ir.cfg, B("h")));
    done(&ir);
}

/* A block no path reaches: no linear order. */
static void unreachable_block(void **state)
{
    (void)state;
    struct ir ir = parse("define void @f() {\n"
                         "entry:\n"
                         "  br label %exit\n"
                         "dead:\n"
                         "  br label %exit\n"
                         "exit:\n"
                         "  ret void\n"
                         "}\n");
    assert_int_equal(vz_cfg_linear_order(ir.cfg, NULL, 0), 0);
    assert_null(vz_cfg_idom(ir.cfg, B("dead")));
    assert_int_equal(vz_cfg_loop_depth(ir.cfg, B("dead")), 0);
    done(&ir);
}

/* A declaration has nothing to analyse. */
static void declaration(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("m", ctx);
    LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0);
    assert_null(vz_cfg_build(LLVMAddFunction(mod, "g", type)));
    vz_cfg_free(NULL);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(diamond),
        cmocka_unit_test(loop_break_continue),
        cmocka_unit_test(nested_exit_from_inner),
        cmocka_unit_test(latch_not_last_in_rpo),
        cmocka_unit_test(sequential_loops),
        cmocka_unit_test(infinite_loop),
        cmocka_unit_test(irreducible),
        cmocka_unit_test(irreducible_in_loop),
        cmocka_unit_test(unreachable_block),
        cmocka_unit_test(declaration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

package dev.spool.agent.internal;

import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Inserts one call into {@code dev.spool.bridge.Hooks} at the entry of a method (before any of its
 * own code, so in a constructor before the {@code super} call) and nothing else: no field, no
 * method, no new local variable, so it is valid for a retransformation. What each {@link Kind}
 * inserts, in Java terms ({@code Hooks} is the boot bridge; every block but the buffer's
 * {@code IOException} falls back to the original code on any throwable):
 * <pre>{@code
 * WRITE_JSON     try { if (Hooks.writeJson(this, file, value)) return; }
 *                catch (IOException e) { throw e; } catch (Throwable t) { }
 * READ_JSON      try { Object v = Hooks.readJson(this, "<method>", file, arg2 or null);
 *                      if (v != null) return (ReturnType) (v == Hooks.NULL ? null : v); }
 *                catch (IOException e) { throw e; } catch (Throwable t) { }
 * JUL_OPEN       try { Hooks.nextStreamOwner(this); Hooks.nextStreamName(file == null ? null : file.getPath()); }
 *                catch (Throwable t) { }
 * JUL_METER      try { out = Hooks.wrapLogStream("jul", null, out); } catch (Throwable t) { }   (argument 1)
 * LOGBACK_STREAM try { out = Hooks.wrapLogStream("logback", this, out); } catch (Throwable t) { }
 * LOGBACK_EVENT  try { if (Hooks.logRecord("logback", this, event)) return; } catch (Throwable t) { }
 * LOGBACK_CLOSE  try { Hooks.logClosing("logback", this); } catch (Throwable t) { }
 * LOGBACK_ROLL   try { if (Hooks.logRecord("logback-roll", this, event)) return; } catch (Throwable t) { }
 * LOGBACK_CLOCK  try { long t = Hooks.logClock(); if (t != Long.MIN_VALUE) return t; } catch (Throwable t) { }
 * EMIT           try { if (Hooks.emit("<type>.<method>", new Object[] {args, boxed})) return <default>; }
 *                catch (Throwable t) { }
 * JUL_PUBLISH    try { if (Hooks.julPublish(this, record)) return; } catch (Throwable t) { }
 * JUL_DRAIN      try { Hooks.julDrain(this, "<method>"); } catch (Throwable t) { }
 * FILE_OP        try { Hooks.fileOp(<op>, arg a or null, arg b boxed or null); } catch (Throwable t) { }
 * }</pre>
 * With {@code unlock} (a {@code synchronized} JUL {@code publish} woven at class load, never at a
 * retransformation, which may not change modifiers), the method loses {@code ACC_SYNCHRONIZED}
 * and takes the same monitor itself <em>after</em> the inserted block, as {@code javac} compiles a
 * {@code synchronized (this)} block: {@code monitorenter} after the block, {@code monitorexit}
 * before each return, and a catch-all handler (last in the exception table) that exits the monitor
 * and rethrows. So the hook runs without the handler's lock, and the original body with it.
 * The inserted code's stack map frames are written here (the method's entry state is known from
 * its descriptor: {@code this} — uninitialised in a constructor — and the arguments), so the
 * method's own frames are kept as they are and no class is ever loaded to compute one. The
 * class must therefore be read with {@code ClassReader.EXPAND_FRAMES}. A {@code nop} after the
 * inserted block keeps its last frame from sharing an offset with a frame of the original code.
 */
final class EntryHook extends MethodVisitor {

    enum Kind { WRITE_JSON, READ_JSON, JUL_OPEN, JUL_METER, LOGBACK_STREAM, LOGBACK_EVENT, LOGBACK_CLOSE, EMIT, JUL_PUBLISH,
        JUL_DRAIN, LOGBACK_ROLL, LOGBACK_CLOCK, FILE_OP }

    static final String HOOKS = "dev/spool/bridge/Hooks";
    private static final String FILE = "java/io/File";
    private static final String STREAM = "java/io/OutputStream";
    private static final String OBJECT = "java/lang/Object";
    private static final String THROWABLE = "java/lang/Throwable";
    private static final String IO_EXCEPTION = "java/io/IOException";
    /** Enough for every inserted block (the emitter's array store of a long is the deepest: 6). */
    private static final int STACK_NEEDED = 8;

    private final Kind kind;
    private final String label; // READ_JSON: the method name; EMIT: "type.method"
    private final boolean isStatic;
    private final boolean frames;
    private final Type[] args;
    private final Type returnType;
    private final Object[] locals;
    private final boolean unlock;
    private final Label lockedStart = new Label();
    /** FILE_OP: the {@code Hooks.FILE_*} kind and the two entry values passed (0 = this, n = argument n, -1 = null). */
    private final int fileOp;
    private final int[] fileArgs;

    EntryHook(MethodVisitor next, Kind kind, String label, String owner, int access, String name, String desc,
              boolean frames) {
        this(next, kind, label, owner, access, name, desc, frames, false);
    }

    EntryHook(MethodVisitor next, Kind kind, String label, String owner, int access, String name, String desc,
              boolean frames, boolean unlock) {
        this(next, kind, label, owner, access, name, desc, frames, unlock, 0, null);
    }

    /** A FILE_OP hook passing {@code Hooks.fileOp(op, value of a, value of b)} ({@link #fileArgs}). */
    static EntryHook fileOp(MethodVisitor next, String owner, int access, String name, String desc, boolean frames,
                            int op, int a, int b) {
        return new EntryHook(next, Kind.FILE_OP, name, owner, access, name, desc, frames, false, op, new int[] {a, b});
    }

    private EntryHook(MethodVisitor next, Kind kind, String label, String owner, int access, String name, String desc,
                      boolean frames, boolean unlock, int fileOp, int[] fileArgs) {
        super(Opcodes.ASM9, next);
        this.fileOp = fileOp;
        this.fileArgs = fileArgs;
        this.unlock = unlock;
        this.kind = kind;
        this.label = label;
        this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
        this.frames = frames;
        this.args = Type.getArgumentTypes(desc);
        this.returnType = Type.getReturnType(desc);
        this.locals = entryLocals(owner, isStatic, "<init>".equals(name), args);
    }

    @Override
    public void visitCode() {
        super.visitCode();
        Label start = new Label();
        Label end = new Label();
        Label onThrowable = new Label();
        Label onIo = new Label();
        Label resume = new Label();
        boolean io = kind == Kind.WRITE_JSON || kind == Kind.READ_JSON;
        if (io) {
            super.visitTryCatchBlock(start, end, onIo, IO_EXCEPTION);
        }
        super.visitTryCatchBlock(start, end, onThrowable, THROWABLE);
        super.visitLabel(start);
        switch (kind) {
            case WRITE_JSON -> returnIfTrue(3, "writeJson", "(Ljava/lang/Object;Ljava/io/File;Ljava/lang/Object;)Z", end, resume);
            case READ_JSON -> readJson(end, resume);
            case JUL_OPEN -> {
                Label isNull = new Label();
                Label named = new Label();
                super.visitVarInsn(Opcodes.ALOAD, 0); // the FileHandler: whose records feed the stream (RoutedLogReads)
                invokeHooks("nextStreamOwner", "(Ljava/lang/Object;)V");
                super.visitVarInsn(Opcodes.ALOAD, 1);
                super.visitInsn(Opcodes.DUP);
                super.visitJumpInsn(Opcodes.IFNULL, isNull);
                super.visitMethodInsn(Opcodes.INVOKEVIRTUAL, FILE, "getPath", "()Ljava/lang/String;", false);
                super.visitJumpInsn(Opcodes.GOTO, named);
                super.visitLabel(isNull);
                frame(FILE);
                super.visitInsn(Opcodes.POP);
                super.visitInsn(Opcodes.ACONST_NULL);
                super.visitLabel(named);
                frame("java/lang/String");
                invokeHooks("nextStreamName", "(Ljava/lang/String;)V");
                super.visitLabel(end);
                super.visitJumpInsn(Opcodes.GOTO, resume);
            }
            case JUL_METER, LOGBACK_STREAM -> {
                super.visitLdcInsn(kind == Kind.JUL_METER ? "jul" : "logback");
                if (kind == Kind.JUL_METER) {
                    super.visitInsn(Opcodes.ACONST_NULL); // 'this' is not initialised yet
                } else {
                    super.visitVarInsn(Opcodes.ALOAD, 0);
                }
                super.visitVarInsn(Opcodes.ALOAD, 1);
                invokeHooks("wrapLogStream", "(Ljava/lang/String;Ljava/lang/Object;Ljava/io/OutputStream;)Ljava/io/OutputStream;");
                super.visitVarInsn(Opcodes.ASTORE, 1);
                super.visitLabel(end);
                super.visitJumpInsn(Opcodes.GOTO, resume);
            }
            case LOGBACK_EVENT, LOGBACK_ROLL -> {
                super.visitLdcInsn(kind == Kind.LOGBACK_EVENT ? "logback" : "logback-roll");
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitVarInsn(Opcodes.ALOAD, 1);
                invokeHooks("logRecord", "(Ljava/lang/String;Ljava/lang/Object;Ljava/lang/Object;)Z");
                super.visitLabel(end);
                super.visitJumpInsn(Opcodes.IFEQ, resume);
                super.visitInsn(Opcodes.RETURN);
            }
            case LOGBACK_CLOCK -> logClock(end, resume);
            case LOGBACK_CLOSE -> {
                super.visitLdcInsn("logback");
                super.visitVarInsn(Opcodes.ALOAD, 0);
                invokeHooks("logClosing", "(Ljava/lang/String;Ljava/lang/Object;)V");
                super.visitLabel(end);
                super.visitJumpInsn(Opcodes.GOTO, resume);
            }
            case EMIT -> {
                super.visitLdcInsn(label);
                boxedArguments();
                invokeHooks("emit", "(Ljava/lang/String;[Ljava/lang/Object;)Z");
                super.visitLabel(end);
                super.visitJumpInsn(Opcodes.IFEQ, resume);
                returnDefault();
            }
            case JUL_PUBLISH -> returnIfTrue(2, "julPublish", "(Ljava/lang/Object;Ljava/lang/Object;)Z", end, resume);
            case FILE_OP -> {
                super.visitLdcInsn(fileOp);
                for (int value : fileArgs) {
                    loadBoxed(value);
                }
                invokeHooks("fileOp", "(ILjava/lang/Object;Ljava/lang/Object;)V");
                super.visitLabel(end);
                super.visitJumpInsn(Opcodes.GOTO, resume);
            }
            case JUL_DRAIN -> {
                load(0);
                super.visitLdcInsn(label);
                invokeHooks("julDrain", "(Ljava/lang/Object;Ljava/lang/String;)V");
                super.visitLabel(end);
                super.visitJumpInsn(Opcodes.GOTO, resume);
            }
        }
        if (io) {
            super.visitLabel(onIo);
            frame(IO_EXCEPTION);
            super.visitInsn(Opcodes.ATHROW);
        }
        super.visitLabel(onThrowable);
        frame(THROWABLE);
        super.visitInsn(Opcodes.POP);
        super.visitLabel(resume);
        frame(null);
        super.visitInsn(Opcodes.NOP);
        if (unlock) {
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitInsn(Opcodes.MONITORENTER);
            super.visitLabel(lockedStart);
        }
    }

    /** {@code if (Hooks.<method>(this, arg1, ...)) return;} with the first {@code references} references of the entry. */
    private void returnIfTrue(int references, String method, String desc, Label end, Label resume) {
        for (int i = 0; i < references; i++) {
            load(i);
        }
        invokeHooks(method, desc);
        super.visitLabel(end);
        super.visitJumpInsn(Opcodes.IFEQ, resume);
        super.visitInsn(Opcodes.RETURN);
    }

    /** The LOGBACK_CLOCK block: a clock set for this thread is returned, else the original body runs. */
    private void logClock(Label end, Label resume) {
        Label notSet = new Label();
        invokeHooks("logClock", "()J");
        super.visitInsn(Opcodes.DUP2);
        super.visitLdcInsn(Long.MIN_VALUE);
        super.visitInsn(Opcodes.LCMP);
        super.visitJumpInsn(Opcodes.IFEQ, notSet);
        super.visitLabel(end);
        super.visitInsn(Opcodes.LRETURN);
        super.visitLabel(notSet);
        frame(Opcodes.LONG);
        super.visitInsn(Opcodes.POP2);
        super.visitJumpInsn(Opcodes.GOTO, resume);
    }

    /** With {@code unlock}: the monitor is left before each of the original body's returns. */
    @Override
    public void visitInsn(int opcode) {
        if (unlock && opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitInsn(Opcodes.MONITOREXIT);
        }
        super.visitInsn(opcode);
    }

    /** The READ_JSON block from the call to the return of the served value. */
    private void readJson(Label end, Label resume) {
        Label notServed = new Label();
        Label cast = new Label();
        load(0);
        super.visitLdcInsn(label);
        load(1);
        if (args.length > 1) {
            load(2);
        } else {
            super.visitInsn(Opcodes.ACONST_NULL);
        }
        invokeHooks("readJson", "(Ljava/lang/Object;Ljava/lang/String;Ljava/io/File;Ljava/lang/Object;)Ljava/lang/Object;");
        super.visitInsn(Opcodes.DUP);
        super.visitJumpInsn(Opcodes.IFNULL, notServed);
        super.visitInsn(Opcodes.DUP);
        super.visitFieldInsn(Opcodes.GETSTATIC, HOOKS, "NULL", "Ljava/lang/Object;");
        super.visitJumpInsn(Opcodes.IF_ACMPNE, cast);
        super.visitInsn(Opcodes.POP);
        super.visitInsn(Opcodes.ACONST_NULL);
        super.visitLabel(cast);
        frame(OBJECT);
        super.visitTypeInsn(Opcodes.CHECKCAST, returnType.getInternalName()); // inside the try: a mismatch falls back
        super.visitLabel(end);
        super.visitInsn(Opcodes.ARETURN);
        super.visitLabel(notServed);
        frame(OBJECT);
        super.visitInsn(Opcodes.POP);
        super.visitJumpInsn(Opcodes.GOTO, resume);
    }

    /** Loads a reference: {@code index} 0 is {@code this} (the first argument of a static method), n the n-th argument. */
    private void load(int index) {
        super.visitVarInsn(Opcodes.ALOAD, index == 0 && !isStatic ? 0 : slotOf(index - 1));
    }

    /** Loads entry value {@code index} of an instance method (0 = this, n = argument n, a primitive boxed); -1: null. */
    private void loadBoxed(int index) {
        if (index < 0) {
            super.visitInsn(Opcodes.ACONST_NULL);
        } else if (index == 0) {
            super.visitVarInsn(Opcodes.ALOAD, 0);
        } else {
            Type t = args[index - 1];
            super.visitVarInsn(t.getOpcode(Opcodes.ILOAD), slotOf(index - 1));
            box(t);
        }
    }

    private int slotOf(int argument) {
        int slot = isStatic ? 0 : 1;
        for (int i = 0; i < argument; i++) {
            slot += args[i].getSize();
        }
        return slot;
    }

    private void boxedArguments() {
        super.visitLdcInsn(args.length);
        super.visitTypeInsn(Opcodes.ANEWARRAY, OBJECT);
        for (int i = 0; i < args.length; i++) {
            super.visitInsn(Opcodes.DUP);
            super.visitLdcInsn(i);
            Type t = args[i];
            super.visitVarInsn(t.getOpcode(Opcodes.ILOAD), slotOf(i));
            box(t);
            super.visitInsn(Opcodes.AASTORE);
        }
    }

    private void box(Type t) {
        String wrapper = switch (t.getSort()) {
            case Type.BOOLEAN -> "java/lang/Boolean";
            case Type.BYTE -> "java/lang/Byte";
            case Type.CHAR -> "java/lang/Character";
            case Type.SHORT -> "java/lang/Short";
            case Type.INT -> "java/lang/Integer";
            case Type.LONG -> "java/lang/Long";
            case Type.FLOAT -> "java/lang/Float";
            case Type.DOUBLE -> "java/lang/Double";
            default -> null;
        };
        if (wrapper != null) {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, wrapper, "valueOf", "(" + t.getDescriptor() + ")L" + wrapper + ";", false);
        }
    }

    /** The return of a skipped body: the return type's default value (void: nothing). */
    private void returnDefault() {
        switch (returnType.getSort()) {
            case Type.VOID -> { }
            case Type.LONG -> super.visitInsn(Opcodes.LCONST_0);
            case Type.FLOAT -> super.visitInsn(Opcodes.FCONST_0);
            case Type.DOUBLE -> super.visitInsn(Opcodes.DCONST_0);
            case Type.OBJECT, Type.ARRAY -> super.visitInsn(Opcodes.ACONST_NULL);
            default -> super.visitInsn(Opcodes.ICONST_0);
        }
        super.visitInsn(returnType.getOpcode(Opcodes.IRETURN));
    }

    private void invokeHooks(String method, String desc) {
        super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, method, desc, false);
    }

    /** A full frame: the entry locals and a stack of {@code stackTop} alone (a type name or ASM's {@code Opcodes.LONG}; null: empty). */
    private void frame(Object stackTop) {
        if (frames) {
            Object[] stack = stackTop == null ? new Object[0] : new Object[] {stackTop};
            super.visitFrame(Opcodes.F_NEW, locals.length, locals, stack.length, stack);
        }
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        if (unlock) { // catch-all after the body: leave the monitor and rethrow (last in the exception table)
            Label lockedEnd = new Label();
            Label onAny = new Label();
            super.visitLabel(lockedEnd);
            super.visitTryCatchBlock(lockedStart, lockedEnd, onAny, null);
            super.visitLabel(onAny);
            frame(THROWABLE);
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitInsn(Opcodes.MONITOREXIT);
            super.visitInsn(Opcodes.ATHROW);
        }
        super.visitMaxs(Math.max(maxStack, STACK_NEEDED), maxLocals);
    }

    /** The locals at a method's entry as ASM's expanded frame entries. */
    static Object[] entryLocals(String owner, boolean isStatic, boolean constructor, Type[] args) {
        Object[] locals = new Object[args.length + (isStatic ? 0 : 1)];
        int i = 0;
        if (!isStatic) {
            locals[i++] = constructor ? Opcodes.UNINITIALIZED_THIS : owner;
        }
        for (Type t : args) {
            locals[i++] = switch (t.getSort()) {
                case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> Opcodes.INTEGER;
                case Type.LONG -> Opcodes.LONG;
                case Type.FLOAT -> Opcodes.FLOAT;
                case Type.DOUBLE -> Opcodes.DOUBLE;
                case Type.ARRAY -> t.getDescriptor();
                default -> t.getInternalName();
            };
        }
        return locals;
    }
}

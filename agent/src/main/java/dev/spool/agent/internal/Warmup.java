package dev.spool.agent.internal;

import java.lang.instrument.ClassFileTransformer;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Runs ByteBuddy's transformer once, on the build thread, over a synthetic class shaped like
 * Jackson's {@code ObjectMapper} (its bytes are produced, never defined). ByteBuddy's first
 * transformation loads and links a few hundred classes; doing it here, in parallel with the host's
 * startup, keeps that time off the host's first real Jackson or JUL class load. Failures are
 * ignored: the real transformations report their own.
 */
final class Warmup {

    static final String CLASS_NAME = "dev.spool.agent.internal.WarmupTarget";

    private Warmup() {}

    /** {@code public class WarmupTarget { public void writeValue(File, Object) {} public Object readValue(File, Class) { return null; } }} */
    static byte[] targetClass() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, CLASS_NAME.replace('.', '/'), null,
                "java/lang/Object", null);
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor write = cw.visitMethod(Opcodes.ACC_PUBLIC, "writeValue", "(Ljava/io/File;Ljava/lang/Object;)V", null, null);
        write.visitCode();
        write.visitInsn(Opcodes.RETURN);
        write.visitMaxs(0, 0);
        write.visitEnd();
        MethodVisitor read = cw.visitMethod(Opcodes.ACC_PUBLIC, "readValue", "(Ljava/io/File;Ljava/lang/Class;)Ljava/lang/Object;", null, null);
        read.visitCode();
        read.visitInsn(Opcodes.ACONST_NULL);
        read.visitInsn(Opcodes.ARETURN);
        read.visitMaxs(0, 0);
        read.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    static void run(ClassFileTransformer transformer) {
        try {
            transformer.transform(Warmup.class.getClassLoader(), CLASS_NAME.replace('.', '/'), null, null, targetClass());
        } catch (Exception | LinkageError ignored) {
            // the warm-up only saves time; a real transformation reports any real problem
        }
    }
}

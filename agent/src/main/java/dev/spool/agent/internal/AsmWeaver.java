package dev.spool.agent.internal;

import dev.spool.agent.files.FileOpWeaves;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * The agent's weaver: plain ASM (the copy bundled in byte-buddy) inserting one {@link EntryHook}
 * into each target method; {@link LazyTransformer} hands it only the target classes. Which
 * methods get which hook:
 * <ul>
 *   <li>Jackson {@code ObjectMapper}/{@code ObjectWriter}: {@code writeValue(File, Object)} →
 *       {@code WRITE_JSON}; with {@code ObjectReader}: {@code readValue(File[, x])} and
 *       {@code readTree(File)} returning a reference → {@code READ_JSON};
 *   <li>JUL {@code FileHandler.open(File, …)} (2 arguments) → {@code JUL_OPEN};
 *       {@code FileHandler$MeteredStream(OutputStream, …)} (2 arguments) → {@code JUL_METER};
 *   <li>JUL capture at the call ({@code dev.spool.agent.jul}): {@code FileHandler.publish(LogRecord)} →
 *       {@code JUL_PUBLISH} (at class load a {@code synchronized} one, Java 17's, is unlocked: see
 *       {@link EntryHook});
 *       {@code StreamHandler.flush()} and {@code FileHandler.close()} → {@code JUL_DRAIN};
 *   <li>Logback {@code OutputStreamAppender.setOutputStream(OutputStream)} → {@code LOGBACK_STREAM},
 *       {@code writeOut(Object)} → {@code LOGBACK_EVENT}, {@code closeOutputStream()} → {@code LOGBACK_CLOSE};
 *       {@code RollingFileAppender.subAppend(Object)} → {@code LOGBACK_ROLL} (the size check moves to the
 *       encoding thread); {@code TimeBasedFileNamingAndTriggeringPolicyBase.getCurrentTime()} →
 *       {@code LOGBACK_CLOCK} (that thread's check reads the caller's clock);
 *   <li>the JDK's file operations ({@link FileOpWeaves}: {@code FileInputStream.open}, {@code Files.*}'s
 *       provider methods, {@code File.delete}, ...) → {@code FILE_OP} (retransformed: loaded before premain);
 *   <li>every non-abstract, non-native method of an emitter class with a name listed in
 *       {@code spool.events.methods} → {@code EMIT}.
 * </ul>
 * Only code is inserted into existing methods (no field, method or frame-format change), so the
 * same weaving serves retransformation (dynamic attach); the one modifier change (unlocking
 * {@code FileHandler.publish}) is made only where the loaded class has it already or is being
 * loaded now. No class is loaded while weaving: frames
 * are written by {@link EntryHook}, not computed. A class that cannot be woven is reported once
 * and left unchanged. Thread-safe (no mutable state).
 */
final class AsmWeaver implements ClassFileTransformer {

    private final boolean jackson;
    private final boolean jul;
    private final boolean logback;
    private final boolean files;
    private final Map<String, Set<String>> emitters; // internal class name -> method names
    private final AgentControl control;

    AsmWeaver(boolean jackson, boolean jul, boolean logback, Map<String, Set<String>> emitters, AgentControl control) {
        this(jackson, jul, logback, false, emitters, control);
    }

    /** @param files weave the JDK's file operations ({@link FileOpWeaves}): the host's own operations on buffered files */
    AsmWeaver(boolean jackson, boolean jul, boolean logback, boolean files, Map<String, Set<String>> emitters,
              AgentControl control) {
        this.files = files;
        this.jackson = jackson;
        this.jul = jul;
        this.logback = logback;
        this.emitters = Map.copyOf(emitters);
        this.control = control;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
                            byte[] bytes) {
        String binaryName = className.replace('/', '.');
        try {
            ClassReader reader = new ClassReader(bytes);
            // Given the reader, the writer keeps its constant pool and copies every method this visitor
            // leaves alone as raw bytes, undecoded (ObjectMapper: 5 woven of ~300; its cold weave
            // 58-68 -> 36-54 ms CPU on the host's loading thread, loaded machine)
            ClassWriter writer = new ClassWriter(reader, 0);
            Visitor visitor = new Visitor(writer, className, binaryName, unlockPublish(redefined));
            reader.accept(visitor, ClassReader.EXPAND_FRAMES);
            if (visitor.woven == 0) {
                return null;
            }
            byte[] woven = writer.toByteArray();
            control.instrumented(binaryName);
            AgentLog.debug("instrumented " + binaryName + (redefined != null ? " (retransformed)" : ""));
            return woven;
        } catch (RuntimeException | LinkageError e) {
            control.error("transform:" + binaryName, "cannot instrument " + binaryName + " (" + e + "): left unchanged");
            return null;
        }
    }

    /**
     * Whether a {@code synchronized FileHandler.publish} may lose its modifier: at class load, or
     * when the loaded class has already lost it (a later retransformation must keep what is loaded).
     */
    static boolean unlockPublish(Class<?> redefined) {
        if (redefined == null) {
            return true;
        }
        try {
            return !java.lang.reflect.Modifier.isSynchronized(
                    redefined.getDeclaredMethod("publish", java.util.logging.LogRecord.class).getModifiers());
        } catch (NoSuchMethodException | RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** The hook for one method of class {@code internalName}, or null to leave it alone. */
    EntryHook.Kind kindOf(String internalName, int access, String name, String desc) {
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0 || "<clinit>".equals(name)) {
            return null;
        }
        boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
        Type[] args = Type.getArgumentTypes(desc);
        Set<String> emitted = emitters.get(internalName);
        if (emitted != null && emitted.contains(name) && !"<init>".equals(name)) {
            return EntryHook.Kind.EMIT;
        }
        String type = internalName.replace('/', '.');
        if (jackson && !isStatic && args.length > 0 && isFile(args[0]) && isJackson(type)) {
            Type result = Type.getReturnType(desc);
            if (!HostNames.OBJECT_READER.equals(type) && "writeValue".equals(name)
                    && "(Ljava/io/File;Ljava/lang/Object;)V".equals(desc)) {
                return EntryHook.Kind.WRITE_JSON;
            }
            boolean reference = result.getSort() == Type.OBJECT || result.getSort() == Type.ARRAY;
            boolean secondIsReference = args.length < 2 || args[1].getSort() == Type.OBJECT || args[1].getSort() == Type.ARRAY;
            if (reference && secondIsReference && (("readValue".equals(name) && args.length <= 2)
                    || ("readTree".equals(name) && args.length == 1))) {
                return EntryHook.Kind.READ_JSON;
            }
            return null;
        }
        if (jul && HostNames.JUL_FILE_HANDLER.equals(type) && "open".equals(name) && args.length == 2 && isFile(args[0])) {
            return EntryHook.Kind.JUL_OPEN;
        }
        if (jul && HostNames.JUL_METERED_STREAM.equals(type) && "<init>".equals(name) && args.length == 2 && isStream(args[0])) {
            return EntryHook.Kind.JUL_METER;
        }
        if (jul && !isStatic && HostNames.JUL_FILE_HANDLER.equals(type) && "publish".equals(name)
                && "(Ljava/util/logging/LogRecord;)V".equals(desc)) {
            return EntryHook.Kind.JUL_PUBLISH;
        }
        if (jul && !isStatic && "()V".equals(desc) && ((HostNames.JUL_STREAM_HANDLER.equals(type) && "flush".equals(name))
                || (HostNames.JUL_FILE_HANDLER.equals(type) && "close".equals(name)))) {
            return EntryHook.Kind.JUL_DRAIN;
        }
        if (logback && HostNames.LOGBACK_OUTPUT_STREAM_APPENDER.equals(type) && !isStatic && "setOutputStream".equals(name)
                && "(Ljava/io/OutputStream;)V".equals(desc)) {
            return EntryHook.Kind.LOGBACK_STREAM;
        }
        if (logback && HostNames.LOGBACK_OUTPUT_STREAM_APPENDER.equals(type) && !isStatic && "writeOut".equals(name)
                && "(Ljava/lang/Object;)V".equals(desc)) {
            return EntryHook.Kind.LOGBACK_EVENT;
        }
        if (logback && HostNames.LOGBACK_OUTPUT_STREAM_APPENDER.equals(type) && !isStatic && "closeOutputStream".equals(name)
                && "()V".equals(desc)) {
            return EntryHook.Kind.LOGBACK_CLOSE;
        }
        if (logback && HostNames.LOGBACK_ROLLING_APPENDER.equals(type) && !isStatic && "subAppend".equals(name)
                && "(Ljava/lang/Object;)V".equals(desc)) {
            return EntryHook.Kind.LOGBACK_ROLL;
        }
        if (logback && HostNames.LOGBACK_TIME_TRIGGER_BASE.equals(type) && !isStatic && "getCurrentTime".equals(name)
                && "()J".equals(desc)) {
            return EntryHook.Kind.LOGBACK_CLOCK;
        }
        return null;
    }

    private static boolean isJackson(String type) {
        return HostNames.OBJECT_MAPPER.equals(type) || HostNames.OBJECT_WRITER.equals(type) || HostNames.OBJECT_READER.equals(type);
    }

    private static boolean isFile(Type t) {
        return t.getSort() == Type.OBJECT && "java/io/File".equals(t.getInternalName());
    }

    private static boolean isStream(Type t) {
        return t.getSort() == Type.OBJECT && "java/io/OutputStream".equals(t.getInternalName());
    }

    private final class Visitor extends ClassVisitor {

        private final String internalName;
        private final String binaryName;
        private final boolean unlockPublish;
        private boolean frames;
        int woven;

        Visitor(ClassVisitor next, String internalName, String binaryName, boolean unlockPublish) {
            super(Opcodes.ASM9, next);
            this.internalName = internalName;
            this.binaryName = binaryName;
            this.unlockPublish = unlockPublish;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            frames = (version & 0xFFFF) >= Opcodes.V1_6; // class files before Java 6 carry no stack map frames
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
            FileOpWeaves.Weave fileOp = files && (access & (Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0
                    ? FileOpWeaves.of(internalName, name, desc) : null;
            if (fileOp != null) {
                woven++;
                return EntryHook.fileOp(super.visitMethod(access, name, desc, signature, exceptions), internalName, access,
                        name, desc, frames, fileOp.op(), fileOp.a(), fileOp.b());
            }
            EntryHook.Kind kind = kindOf(internalName, access, name, desc);
            boolean unlock = kind == EntryHook.Kind.JUL_PUBLISH && unlockPublish && frames
                    && (access & Opcodes.ACC_SYNCHRONIZED) != 0;
            MethodVisitor mv = super.visitMethod(unlock ? access & ~Opcodes.ACC_SYNCHRONIZED : access, name, desc, signature,
                    exceptions);
            if (kind == null) {
                return mv;
            }
            woven++;
            String label = kind == EntryHook.Kind.EMIT ? binaryName + "." + name : name;
            return new EntryHook(mv, kind, label, internalName, access, name, desc, frames, unlock);
        }
    }
}

package dev.spool.agent.internal;

import java.io.File;
import java.lang.instrument.ClassFileTransformer;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.modifier.Visibility;
import net.bytebuddy.implementation.StubMethod;

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

    static void run(ClassFileTransformer transformer) {
        try {
            byte[] bytes = new ByteBuddy().subclass(Object.class).name(CLASS_NAME)
                    .defineMethod("writeValue", void.class, Visibility.PUBLIC).withParameters(File.class, Object.class)
                    .intercept(StubMethod.INSTANCE)
                    .defineMethod("readValue", Object.class, Visibility.PUBLIC).withParameters(File.class, Class.class)
                    .intercept(StubMethod.INSTANCE)
                    .make().getBytes();
            transformer.transform(Warmup.class.getClassLoader(), CLASS_NAME.replace('.', '/'), null, null, bytes);
        } catch (Exception | LinkageError ignored) {
            // the warm-up only saves time; a real transformation reports any real problem
        }
    }
}

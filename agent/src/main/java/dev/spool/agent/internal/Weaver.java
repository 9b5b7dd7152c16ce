package dev.spool.agent.internal;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.none;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.spool.agent.advice.EmitterAdvice;
import dev.spool.agent.advice.JacksonReadAdvice;
import dev.spool.agent.advice.JacksonWriteAdvice;
import dev.spool.agent.advice.JulFileOpenAdvice;
import dev.spool.agent.advice.JulMeteredStreamAdvice;
import dev.spool.agent.advice.LogbackStreamAdvice;
import dev.spool.config.SpoolConfig;
import java.io.File;
import java.lang.instrument.ClassFileTransformer;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Builds ByteBuddy's transformer for the targets (called once, by {@link LazyTransformer}, when the
 * first target class appears). Advice only: no class format change, so retransformation works.
 * ByteBuddy's default ignore rules are replaced because they would skip the JDK's
 * java.util.logging classes; an error listener reports any class that cannot be woven.
 */
final class Weaver {

    private Weaver() {}

    static ClassFileTransformer build(SpoolConfig config, Map<String, Set<String>> emitters, AgentControl control) {
        if (System.getProperty("net.bytebuddy.safe") == null) {
            // Java 25: no sun.misc.Unsafe warnings. Shading relocates this key, so it reaches only Spool's copy.
            System.setProperty("net.bytebuddy.safe", "true");
        }
        AgentBuilder builder = new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
                .disableClassFormatChanges()
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(new TransformListener(control))
                .ignore(none()); // the LazyTransformer passes only target classes here
        if (!config.bufferInclude().isEmpty()) {
            ElementMatcher.Junction<MethodDescription> write = isMethod().and(named("writeValue"))
                    .and(takesArguments(2)).and(takesArgument(0, File.class));
            ElementMatcher.Junction<MethodDescription> read = isMethod().and(takesArgument(0, File.class))
                    .and(named("readValue").and(takesArguments(1).or(takesArguments(2)))
                            .or(named("readTree").and(takesArguments(1))));
            AsmVisitorWrapper writeAdvice = Advice.to(JacksonWriteAdvice.class).on(write);
            AsmVisitorWrapper readAdvice = Advice.to(JacksonReadAdvice.class).on(read);
            builder = builder
                    .type(named(HostNames.OBJECT_MAPPER).or(named(HostNames.OBJECT_WRITER)).or(named(HostNames.OBJECT_READER))
                            .or(named(Warmup.CLASS_NAME)))
                    .transform((b, type, loader, module, domain) -> b.visit(writeAdvice).visit(readAdvice));
        }
        if (config.eventsJul()) {
            AsmVisitorWrapper open = Advice.to(JulFileOpenAdvice.class)
                    .on(named("open").and(takesArguments(2)).and(takesArgument(0, File.class)));
            AsmVisitorWrapper meter = Advice.to(JulMeteredStreamAdvice.class).on(isConstructor().and(takesArguments(2)));
            builder = builder
                    .type(named(HostNames.JUL_FILE_HANDLER))
                    .transform((b, type, loader, module, domain) -> b.visit(open))
                    .type(named(HostNames.JUL_METERED_STREAM))
                    .transform((b, type, loader, module, domain) -> b.visit(meter));
        }
        if (config.eventsLogback()) {
            AsmVisitorWrapper stream = Advice.to(LogbackStreamAdvice.class).on(named("setOutputStream").and(takesArguments(1)));
            builder = builder
                    .type(named(HostNames.LOGBACK_OUTPUT_STREAM_APPENDER))
                    .transform((b, type, loader, module, domain) -> b.visit(stream));
        }
        Advice emitterAdvice = emitters.isEmpty() ? null : Advice.to(EmitterAdvice.class);
        for (Map.Entry<String, Set<String>> e : emitters.entrySet()) {
            ElementMatcher.Junction<MethodDescription> methods = null;
            for (String m : e.getValue()) {
                ElementMatcher.Junction<MethodDescription> one = isMethod().and(not(isAbstract())).and(named(m));
                methods = methods == null ? one : methods.or(one);
            }
            AsmVisitorWrapper woven = emitterAdvice.on(methods);
            builder = builder.type(named(e.getKey()))
                    .transform((b, type, loader, module, domain) -> b.visit(woven));
        }
        ClassFileTransformer raw = builder.makeRaw();
        Warmup.run(raw);
        return raw;
    }
}

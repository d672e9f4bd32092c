import Runtime
import Testing

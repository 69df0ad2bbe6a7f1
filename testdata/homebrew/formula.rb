# formula.rb FORMULA OS ARCH [STAGE PREFIX]: a stand-in for the part of
# Homebrew's Formula DSL that mdcontract's formula uses (written for
# cmd/mdcontract's TestHomebrewFormula; Homebrew itself does not run here).
#
# It loads FORMULA as Homebrew would on OS (darwin, linux) and ARCH
# (arm64, amd64): an `on_macos`/`on_linux`, `on_arm`/`on_intel` block is
# read only on its system. It prints the formula's fields as JSON (the
# url and sha256 chosen for the system). With STAGE and PREFIX, it then
# runs `install` in STAGE (the unpacked archive, where Homebrew runs it)
# into PREFIX, and the formula's `test` block.
require "fileutils"
require "json"
require "open3"

OS, ARCH = ARGV[1], ARGV[2]

class Formula
  class << self
    attr_reader :fields, :test_block

    def field(name, value)
      @fields ||= {}
      raise "#{name} given twice for #{OS}/#{ARCH}" if @fields.key?(name)
      @fields[name] = value
    end

    def desc(s) = field("desc", s)
    def homepage(s) = field("homepage", s)
    def version(s) = field("version", s)
    def url(s) = field("url", s)
    def sha256(s) = field("sha256", s)
    def on_macos(&b) = (b.call if OS == "darwin")
    def on_linux(&b) = (b.call if OS == "linux")
    def on_arm(&b) = (b.call if ARCH == "arm64")
    def on_intel(&b) = (b.call if ARCH == "amd64")
    def test(&b) = (@test_block = b)
  end

  class Bin
    def initialize(dir) = (@dir = dir)
    def to_s = @dir

    def install(*names)
      FileUtils.mkdir_p(@dir)
      names.each { |n| FileUtils.mv(n, File.join(@dir, File.basename(n))) }
    end
  end

  def initialize(prefix) = (@prefix = prefix)
  def version = self.class.fields["version"]
  def bin = Bin.new(File.join(@prefix, "bin"))

  def shell_output(cmd)
    out, status = Open3.capture2(cmd)
    raise "#{cmd}: exit status #{status.exitstatus}" unless status.success?
    out
  end

  def assert_equal(want, got)
    raise "test: got #{got.inspect}, want #{want.inspect}" unless want == got
  end
end

load ARGV[0]
klass = Formula.subclasses.first or raise "#{ARGV[0]} defines no formula"
puts JSON.generate(klass.fields.merge("class" => klass.name))
if ARGV.length == 5
  stage, prefix = ARGV[3], File.expand_path(ARGV[4])
  f = klass.new(prefix)
  Dir.chdir(stage) { f.install }
  f.instance_eval(&klass.test_block)
  puts "test passed"
end

// The distributed build in a program built without MPI (CMake option MANCALA_MPI off, or no MPI
// found): MpiSession::available() says so, and asking for it anyway is an error (the doors word
// how to get it).
#include <cstdlib>

#include "db/table_build_mpi.h"

namespace mancala::db {

namespace {

constexpr const char* kUnavailable = "this program was built without MPI";

}  // namespace

bool MpiSession::available() {
  return false;
}

Expected<std::unique_ptr<MpiSession>> MpiSession::start() {
  return Error{kUnavailable};
}

MpiSession::~MpiSession() = default;

void MpiSession::abort(int code) const {
  std::exit(code);
}

void MpiSession::barrier() const {}

Expected<bool> check_distributed_build_fits(const MpiSession&, const BuildRequest&,
                                            const DistributedOptions&) {
  return Error{kUnavailable};
}

Expected<bool> build_tables_distributed(const MpiSession&, const BuildRequest&,
                                        const DistributedOptions&,
                                        const std::function<void(const DistributedProgress&)>&,
                                        const std::function<void(const DistributedLayerReport&)>&) {
  return Error{kUnavailable};
}

}  // namespace mancala::db

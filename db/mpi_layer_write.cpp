#include "db/mpi_layer_write.h"

#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "db/checksum_stream.h"
#include "db/table_blocks.h"
#include "db/value_code.h"

namespace mancala::db {

Expected<uint64_t> file_section_checksum(const std::string& path, uint64_t offset, uint64_t size) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return Error{path + ": missing or unreadable"};
  Checksum64Stream stream(size);
  std::vector<uint8_t> buffer(uint64_t{4} << 20);
  uint64_t done = 0;
  while (done < size) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(buffer.size(), size - done));
    const ssize_t n = ::pread(fd, buffer.data(), want, static_cast<off_t>(offset + done));
    if (n <= 0) {
      ::close(fd);
      return Error{path + ": read failed"};
    }
    stream.update(buffer.data(), static_cast<size_t>(n));
    done += static_cast<uint64_t>(n);
  }
  ::close(fd);
  return stream.finish();
}

namespace {

// ---------------------------------------------------------------------------------------------
// The steps both encodings share.

// Bytes this rank writes into the layer file at `offset`, and reads back.
struct FilePiece {
  uint64_t offset;
  const uint8_t* data;
  uint64_t size;
};

template <class T>
FilePiece piece_at(uint64_t offset, const T* items, size_t count) {
  return {offset, reinterpret_cast<const uint8_t*>(items), count * sizeof(T)};
}

// Where each chunk's bytes start in the data section, from the sizes of this rank's chunks (in
// order): chunk c is the (c / ranks)-th chunk of rank c % ranks, and its bytes follow those of
// chunks 0 .. c-1. The last of the chunk_count + 1 offsets is the data section's size.
std::vector<uint64_t> place_chunks(const Comm& comm, const LayerPartition& partition,
                                   const std::vector<uint64_t>& my_sizes) {
  int my_count = checked_count(my_sizes.size());
  std::vector<int> counts(comm.size), displs(comm.size);
  MPI_Allgather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < comm.size; ++r) {
    displs[r] = total;
    total += counts[r];
  }
  std::vector<uint64_t> sizes(static_cast<size_t>(total));
  MPI_Allgatherv(my_sizes.data(), my_count, MPI_UINT64_T, sizes.data(), counts.data(),
                 displs.data(), MPI_UINT64_T, MPI_COMM_WORLD);
  std::vector<uint64_t> offsets(partition.chunk_count() + 1, 0);
  for (uint64_t c = 0; c < partition.chunk_count(); ++c) {
    const uint64_t owner = c % static_cast<uint64_t>(comm.size);
    const uint64_t k = c / static_cast<uint64_t>(comm.size);
    offsets[c + 1] = offsets[c] + sizes[displs[owner] + k];
  }
  return offsets;
}

// Writes `size` bytes at `offset`, in pieces that fit MPI's int counts.
std::string write_at(MPI_File file, uint64_t offset, const uint8_t* data, uint64_t size) {
  constexpr uint64_t kPiece = uint64_t{1} << 30;
  for (uint64_t done = 0; done < size;) {
    const int n = static_cast<int>(std::min(kPiece, size - done));
    MPI_Status status;
    const int rc = MPI_File_write_at(file, static_cast<MPI_Offset>(offset + done), data + done, n,
                                     MPI_BYTE, &status);
    if (rc != MPI_SUCCESS) {
      char text[MPI_MAX_ERROR_STRING];
      int length = 0;
      MPI_Error_string(rc, text, &length);
      return "write failed (disk full?): " + std::string(text, static_cast<size_t>(length));
    }
    done += static_cast<uint64_t>(n);
  }
  return "";
}

// Reads [offset, offset + size) of the file back and compares it with `expected`.
std::string compare_with_file(int fd, uint64_t offset, const uint8_t* expected, uint64_t size) {
  std::vector<uint8_t> buffer(std::min<uint64_t>(size, uint64_t{4} << 20));
  for (uint64_t done = 0; done < size;) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(buffer.size(), size - done));
    const ssize_t n = ::pread(fd, buffer.data(), want, static_cast<off_t>(offset + done));
    if (n <= 0) return "read back failed";
    if (std::memcmp(buffer.data(), expected + done, static_cast<size_t>(n)) != 0)
      return "read back different bytes at offset " + std::to_string(offset + done);
    done += static_cast<uint64_t>(n);
  }
  return "";
}

// The temporary file made anew; every rank writes its pieces into it, then reads them back and
// compares them before the file is trusted. On an error on any rank the file is removed.
Expected<bool> write_and_compare(const Comm& comm, const std::string& temporary,
                                 const std::vector<FilePiece>& pieces) {
  if (comm.rank == 0) std::filesystem::remove(temporary);
  comm.barrier();
  MPI_File file;
  const int rc = MPI_File_open(MPI_COMM_WORLD, temporary.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                               MPI_INFO_NULL, &file);
  if (!comm.agree_flag(rc == MPI_SUCCESS)) {
    if (rc == MPI_SUCCESS)  // a file opened on some ranks only: nothing collective is safe now
      throw std::runtime_error(temporary + ": could be opened on some ranks only");
    return Error{temporary + ": cannot create"};
  }
  std::string error;
  for (size_t i = 0; i < pieces.size() && error.empty(); ++i)
    error = write_at(file, pieces[i].offset, pieces[i].data, pieces[i].size);
  if (MPI_File_close(&file) != MPI_SUCCESS && error.empty()) error = "closing failed";
  if (!error.empty()) error = temporary + ": " + error;
  error = comm.agree(error);

  if (error.empty()) {
    const int fd = ::open(temporary.c_str(), O_RDONLY);
    if (fd < 0) error = "cannot read back";
    for (size_t i = 0; i < pieces.size() && error.empty(); ++i)
      error = compare_with_file(fd, pieces[i].offset, pieces[i].data, pieces[i].size);
    if (fd >= 0) ::close(fd);
    if (!error.empty()) error = temporary + ": " + error;
    error = comm.agree(error);
  }
  if (!error.empty()) {
    if (comm.rank == 0) std::filesystem::remove(temporary);
    return Error{error};
  }
  return true;
}

// Where a writer put a layer file's sections.
struct PlacedSections {
  uint32_t encoding;
  uint32_t block_size;
  uint64_t block_count;
  const std::vector<uint8_t>& dictionary;  // the section's bytes (coded: the code lengths)
  uint64_t index_offset, index_bytes;
  uint64_t data_offset, data_size;
};

// Rank 0 checksums the index and data sections from the file, writes the header, checks the
// file as any reader would (with `decode_all`, every block decoded too) and renames it into
// place; every rank learns the outcome, and the file's size.
Expected<uint64_t> finish_layer_file(const DistributedLayer& layer, const PlacedSections& placed,
                                     const std::string& temporary, bool decode_all) {
  LayerSections layout;
  layout.encoding = placed.encoding;
  layout.block_size = placed.block_size;
  layout.block_count = placed.block_count;
  layout.dictionary_size = placed.dictionary.size();
  layout.data_size = placed.data_size;
  layout.dictionary_checksum = checksum64(placed.dictionary.data(), placed.dictionary.size());
  std::string error;
  uint64_t file_size = 0;
  if (layer.comm.rank == 0) {
    Expected<uint64_t> checksum =
        file_section_checksum(temporary, placed.index_offset, placed.index_bytes);
    if (checksum) {
      layout.index_checksum = *checksum;
      checksum = file_section_checksum(temporary, placed.data_offset, layout.data_size);
      if (checksum) layout.data_checksum = *checksum;
    }
    if (!checksum) error = checksum.error();
    const TableHeader header =
        layer_header(layer.table_name, layer.houses, layer.seeds, layer.positions, layout);
    file_size = header.file_size;
    if (error.empty()) {
      const int fd = ::open(temporary.c_str(), O_WRONLY);
      const bool written =
          fd >= 0 &&
          ::pwrite(fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header) &&
          ::fsync(fd) == 0;
      if (fd >= 0) ::close(fd);
      if (!written) error = temporary + ": write failed (disk full?)";
    }
    if (error.empty()) {
      Expected<std::shared_ptr<const TableFile>> check =
          TableFile::open(temporary, layer.table_name, layer.houses, layer.seeds);
      if (!check) {
        error = layer.path + ": written file failed its check: " + check.error();
      } else if (decode_all) {
        Expected<std::vector<int8_t>> all = (*check)->read_all({}, layer.threads);
        if (!all) error = layer.path + ": written file failed its check: " + all.error();
      }
    }
    if (error.empty()) {
      std::error_code ec;
      std::filesystem::rename(temporary, layer.path, ec);
      if (ec) error = layer.path + ": cannot rename into place: " + ec.message();
    }
    if (!error.empty()) std::filesystem::remove(temporary);
  }
  error = layer.comm.agree(error);
  if (!error.empty()) return Error{error};
  MPI_Bcast(&file_size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return file_size;
}

// The whole write of a layer file after its writer has encoded and placed it: every rank's
// pieces written and compared, then the file finished.
Expected<uint64_t> write_layer_file(const DistributedLayer& layer,
                                    const std::vector<FilePiece>& pieces,
                                    const PlacedSections& placed, bool decode_all) {
  const std::string temporary = layer.path + ".tmp";
  if (Expected<bool> written = write_and_compare(layer.comm, temporary, pieces); !written)
    return Error{written.error()};
  return finish_layer_file(layer, placed, temporary, decode_all);
}

// This rank's runs of the layer: [begin, end) of the layer's positions, kept from `local` in its
// part, each a whole number of the partition's chunks.
struct Run {
  uint64_t begin, end, local;
};

std::vector<Run> runs_of(const DistributedLayer& layer) {
  std::vector<Run> runs;
  layer.partition.for_each_run(layer.comm.rank, [&](uint64_t b, uint64_t e, uint64_t l) {
    runs.push_back({b, e, l});
  });
  return runs;
}

// ---------------------------------------------------------------------------------------------
// The zstd writer (kZstdBlocks).

// The dictionary: rank 0 trains it on the same sampled blocks as write_table_file, gathered
// from their owners in sample order; every rank gets it.
std::vector<uint8_t> train_dictionary_distributed(const DistributedLayer& layer,
                                                  const std::vector<int8_t>& values,
                                                  uint64_t blocks, const WriteOptions& options) {
  const Comm& comm = layer.comm;
  const LayerPartition& partition = layer.partition;
  const uint64_t block = block_size_of(options);
  const uint64_t count = layer.positions;
  const std::vector<uint64_t> samples = dictionary_sample_blocks(blocks, options);
  std::vector<uint8_t> mine;
  for (uint64_t b : samples) {
    const uint64_t lo = b * block, hi = std::min(count, lo + block);
    if (partition.owner(lo) != comm.rank) continue;
    const size_t at = mine.size();
    mine.resize(at + (hi - lo));
    zigzag_encode(values.data() + partition.local(lo), hi - lo, mine.data() + at);
  }
  int my_bytes = checked_count(mine.size());
  std::vector<int> bytes(comm.size), displs(comm.size);
  MPI_Gather(&my_bytes, 1, MPI_INT, bytes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  uint64_t total = 0;
  for (int r = 0; r < comm.size; ++r) {
    displs[r] = checked_count(total);
    total += static_cast<uint64_t>(bytes[r]);
  }
  std::vector<uint8_t> gathered(comm.rank == 0 ? total : 0);
  MPI_Gatherv(mine.data(), my_bytes, MPI_UINT8_T, gathered.data(), bytes.data(), displs.data(),
              MPI_UINT8_T, 0, MPI_COMM_WORLD);
  std::vector<uint8_t> dictionary;
  uint64_t dictionary_size = 0;
  if (comm.rank == 0 && !samples.empty()) {
    // Put the samples back in sample order: each rank sent its own in that order.
    std::vector<uint8_t> sample_bytes;
    std::vector<size_t> sample_sizes;
    std::vector<uint64_t> cursor(displs.begin(), displs.end());
    for (uint64_t b : samples) {
      const uint64_t lo = b * block, hi = std::min(count, lo + block);
      uint64_t& at = cursor[partition.owner(lo)];
      sample_bytes.insert(sample_bytes.end(), gathered.begin() + static_cast<ptrdiff_t>(at),
                          gathered.begin() + static_cast<ptrdiff_t>(at + (hi - lo)));
      sample_sizes.push_back(hi - lo);
      at += hi - lo;
    }
    dictionary = train_dictionary(sample_bytes, sample_sizes, options);
    dictionary_size = dictionary.size();
  }
  MPI_Bcast(&dictionary_size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  dictionary.resize(dictionary_size);
  MPI_Bcast(dictionary.data(), checked_count(dictionary_size), MPI_UINT8_T, 0, MPI_COMM_WORLD);
  return dictionary;
}

}  // namespace

Expected<WriteReport> write_zstd_layer_distributed(const DistributedLayer& layer,
                                                   const std::vector<int8_t>& values,
                                                   const WriteOptions& options) {
  const LayerPartition& partition = layer.partition;
  const uint64_t block = block_size_of(options);
  const uint64_t blocks = (layer.positions + block - 1) / block;
  const std::vector<uint8_t> dictionary =
      train_dictionary_distributed(layer, values, blocks, options);

  // Every rank compresses its own blocks: each run's blocks one after another, and where each
  // block starts among them.
  const std::vector<Run> runs = runs_of(layer);
  std::vector<std::vector<uint8_t>> run_data(runs.size());
  std::vector<std::vector<uint64_t>> block_offsets(runs.size());
  std::string error;
  int compressing_threads = 0;
  {
    const PreparedDictionary prepared(dictionary, options);
    for (size_t i = 0; i < runs.size(); ++i) {
      const Run& run = runs[i];
      CompressedBlocks compressed = compress_blocks(values.data() + run.local, run.end - run.begin,
                                                    block, prepared, options, layer.threads);
      compressing_threads = std::max(compressing_threads, compressed.threads);
      if (compressed.failed) error = layer.path + ": compression failed";
      uint64_t size = 0;
      for (const std::vector<uint8_t>& frame : compressed.frames) {
        block_offsets[i].push_back(size);
        size += frame.size();
      }
      run_data[i].reserve(size);
      for (std::vector<uint8_t>& frame : compressed.frames) {
        run_data[i].insert(run_data[i].end(), frame.begin(), frame.end());
        std::vector<uint8_t>().swap(frame);
      }
    }
  }
  error = layer.comm.agree(error);
  if (!error.empty()) return Error{error};

  std::vector<uint64_t> my_sizes;
  for (const std::vector<uint8_t>& data : run_data) my_sizes.push_back(data.size());
  const std::vector<uint64_t> chunk_offsets = place_chunks(layer.comm, partition, my_sizes);
  const uint64_t data_size = chunk_offsets.back();
  const uint64_t index_bytes = (blocks + 1) * sizeof(uint64_t);
  const uint64_t index_offset = kHeaderSize;
  const uint64_t dictionary_offset = index_offset + index_bytes;
  const uint64_t data_offset = dictionary_offset + dictionary.size();

  // Each rank its own index entries and blocks; rank 0 also the index's last entry (the data
  // section's size) and the dictionary.
  std::vector<FilePiece> pieces;
  std::vector<std::vector<uint64_t>> index_entries(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    const uint64_t at = chunk_offsets[runs[i].begin / partition.chunk()];
    for (uint64_t o : block_offsets[i]) index_entries[i].push_back(at + o);
    pieces.push_back(piece_at(index_offset + (runs[i].begin / block) * sizeof(uint64_t),
                              index_entries[i].data(), index_entries[i].size()));
    pieces.push_back(piece_at(data_offset + at, run_data[i].data(), run_data[i].size()));
  }
  if (layer.comm.rank == 0) {
    pieces.push_back(piece_at(index_offset + blocks * sizeof(uint64_t), &data_size, 1));
    pieces.push_back(piece_at(dictionary_offset, dictionary.data(), dictionary.size()));
  }
  const PlacedSections placed{kZstdBlocks,  static_cast<uint32_t>(block),
                              blocks,       dictionary,
                              index_offset, index_bytes,
                              data_offset,  data_size};
  const Expected<uint64_t> file_size =
      write_layer_file(layer, pieces, placed, /*decode_all=*/false);
  if (!file_size) return Error{file_size.error()};
  return WriteReport{*file_size, blocks, dictionary.size(), compressing_threads};
}

// ---------------------------------------------------------------------------------------------
// The coded writer (kCodedBlocks).

Expected<WriteReport> write_coded_layer_distributed(const DistributedLayer& layer,
                                                    const std::vector<int8_t>& values,
                                                    const WriteOptions& options) {
  const LayerPartition& partition = layer.partition;
  const uint32_t block = block_size_of(options);
  const uint64_t blocks = (layer.positions + block - 1) / block;
  const uint64_t group_positions = uint64_t{kGroupBlocks} * block;

  // The symbol counts of every rank's values summed on every rank (integers: the same code
  // whatever the ranks); the partition's chunks hold whole groups, so each rank codes its own.
  const std::vector<Run> runs = runs_of(layer);
  std::vector<uint64_t> counts;
  count_contexts(values.data(), 0, block, layer.seeds, counts);
  for (const Run& run : runs)
    count_contexts(values.data() + run.local, run.end - run.begin, block, layer.seeds, counts);
  MPI_Allreduce(MPI_IN_PLACE, counts.data(), checked_count(counts.size()), MPI_UINT64_T, MPI_SUM,
                MPI_COMM_WORLD);
  const std::vector<uint8_t> lengths = code_lengths(counts, layer.seeds);
  Expected<std::shared_ptr<const ValueCode>> code =
      ValueCode::from_lengths(lengths.data(), lengths.size(), layer.seeds);
  if (!code) return Error{layer.path + ": " + code.error()};
  std::vector<CodedGroups> groups(runs.size());
  std::vector<std::vector<uint8_t>> run_data(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    groups[i] = encode_groups(values.data() + runs[i].local, runs[i].end - runs[i].begin, block,
                              **code, layer.threads);
    run_data[i] = join_pieces(std::move(groups[i].data));
  }

  std::vector<uint64_t> my_sizes;
  for (const std::vector<uint8_t>& data : run_data) my_sizes.push_back(data.size());
  const std::vector<uint64_t> chunk_offsets = place_chunks(layer.comm, partition, my_sizes);
  const uint64_t data_size = chunk_offsets.back();
  const uint64_t index_bytes = coded_group_count(blocks) * sizeof(CodedGroup);
  const uint64_t index_offset = kHeaderSize;
  const uint64_t code_offset = index_offset + index_bytes;
  const uint64_t data_offset = code_offset + lengths.size();

  // Each rank its own groups' index entries (their offsets moved to the run's place) and data;
  // rank 0 also the code.
  std::vector<FilePiece> pieces;
  for (size_t i = 0; i < runs.size(); ++i) {
    const uint64_t at = chunk_offsets[runs[i].begin / partition.chunk()];
    for (CodedGroup& entry : groups[i].index) entry.offset += at;
    pieces.push_back(piece_at(index_offset + runs[i].begin / group_positions * sizeof(CodedGroup),
                              groups[i].index.data(), groups[i].index.size()));
    pieces.push_back(piece_at(data_offset + at, run_data[i].data(), run_data[i].size()));
  }
  if (layer.comm.rank == 0) pieces.push_back(piece_at(code_offset, lengths.data(), lengths.size()));
  const PlacedSections placed{kCodedBlocks, block,       blocks,      lengths,
                              index_offset, index_bytes, data_offset, data_size};
  const Expected<uint64_t> file_size = write_layer_file(layer, pieces, placed, /*decode_all=*/true);
  if (!file_size) return Error{file_size.error()};
  return WriteReport{*file_size, blocks, lengths.size(), layer.threads};
}

}  // namespace mancala::db

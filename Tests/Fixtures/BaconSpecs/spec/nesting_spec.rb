describe 'Cart' do
  it 'starts empty' do
    [].should.be.empty
  end

  describe 'with one book' do
    before { @items = ['book'] }

    it 'counts one item' do
      @items.size.should.equal 1
    end

    describe 'and a coupon' do
      it 'still counts one item' do
        @items.size.should.equal 1
      end
    end
  end

  it 'is back at the top level' do
    true.should.be.true
  end
end
